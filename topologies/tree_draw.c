/*
 * tree_draw.c -- a tree as text, the drawing compi-tree prints (and (compi trees)'s
 * tree-draw): one rank a line, each child two spaces to the right of its parent, the
 * children in the order they are served.
 *
 *   0 (a 10.1.0.1)                 RANK, then " (LABEL)" when the rank has a label,
 *     4 (b 10.2.0.1)  [WAN]        then its mark as given ("  [WAN]")
 *       5 (b 10.2.0.2)
 *     1 (a 10.1.0.2)
 *
 * The walk keeps its own stack (a chain of many ranks must not exhaust the C stack) and
 * draws each rank once, so children lists that are not a tree cannot make it loop.
 */
#include "topologies/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct draw_buf {
    char *s;
    size_t len, cap;
} draw_buf_t;

/* append n bytes of p (or n spaces when p is NULL); 0, or -1 when out of memory */
static int draw__put(draw_buf_t *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap) {
            cap *= 2;
        }
        char *s = realloc(b->s, cap);
        if (s == NULL) {
            return -1;
        }
        b->s = s;
        b->cap = cap;
    }
    if (p != NULL) {
        memcpy(b->s + b->len, p, n);
    } else {
        memset(b->s + b->len, ' ', n);
    }
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static int draw__line(draw_buf_t *b, int r, int depth, const char *label, const char *mark)
{
    char num[16];
    int n = snprintf(num, sizeof(num), "%d", r);

    if (draw__put(b, NULL, (size_t)depth * 2) != 0 || draw__put(b, num, (size_t)n) != 0) {
        return -1;
    }
    if (label != NULL && (draw__put(b, " (", 2) != 0 || draw__put(b, label, strlen(label)) != 0 ||
                          draw__put(b, ")", 1) != 0)) {
        return -1;
    }
    if (mark != NULL && draw__put(b, mark, strlen(mark)) != 0) {
        return -1;
    }
    return draw__put(b, "\n", 1);
}

char *topo_tree_draw(const topo_tree_t *t, int from, const char *const *labels,
                     const char *const *marks)
{
    draw_buf_t b = {.s = NULL, .len = 0, .cap = 0};
    int n = t->size;
    /* the stack holds (rank, depth) pairs; every rank is pushed at most once */
    int *stack = malloc((size_t)n * 2 * sizeof(int));
    char *drawn = calloc((size_t)n, 1);
    int top = 0;

    if (stack == NULL || drawn == NULL || draw__put(&b, "", 0) != 0) {
        goto err;
    }
    if (from < 0 || from >= n) {
        goto out; /* nothing to draw */
    }
    stack[top++] = from;
    stack[top++] = 0;
    drawn[from] = 1;
    while (top > 0) {
        int depth = stack[--top], r = stack[--top];
        if (draw__line(&b, r, depth, labels != NULL ? labels[r] : NULL,
                       marks != NULL ? marks[r] : NULL) != 0) {
            goto err;
        }
        /* pushed last first, so the first child is drawn next */
        for (int i = t->child_off[r + 1] - 1; i >= t->child_off[r]; i--) {
            int c = t->children[i];
            if (c >= 0 && c < n && !drawn[c]) {
                drawn[c] = 1;
                stack[top++] = c;
                stack[top++] = depth + 1;
            }
        }
    }
out:
    free(stack);
    free(drawn);
    return b.s;
err:
    free(stack);
    free(drawn);
    free(b.s);
    return NULL;
}
