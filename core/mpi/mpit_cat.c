/*
 * mpit_cat.c -- the MPI tool information interface: categories and enumerations.
 *
 * Categories group the variables by the layer they tune or measure, by the prefix of
 * their names (the parameters' convention, core/runtime/params.c):
 *
 *   collectives   coll_*       the Scheme config, the closure caches, summaries
 *   pml           pml_*        point-to-point: queues, protocols, waiting
 *   btl           btl, btl_base_*, btl_verbose, module_path: which transports load
 *     btl_self    btl_self_*   (the three are btl's subcategories)
 *     btl_sm      btl_sm_*
 *     btl_ofi     btl_ofi_*
 *   runtime       the rest     start-up, placement, yielding
 *
 * Every variable is in exactly one.  Control variables appear as components register
 * their parameters, so a category's list of them grows: MPI_T_category_changed's stamp is
 * the number of control variables, which changes exactly then.
 *
 * Enumerations: the parameters whose values are a fixed set.  A string parameter's items
 * are its words (numbered from 0); an integer parameter's items are the numbers the
 * library tells apart, and a value between or beyond them reads as the item it acts as.
 *
 * The entry points are generated (core/mpi/gen/mpit_cat.c); each calls its t_x_impl here.
 *
 * Ownership: both are static tables; an MPI_T_enum points into the table of enumerations
 * and is never freed.
 */
#include "core/mpi/mpit.h"

#include "core/mpi/args.h"
#include "core/mpi/mpi_state.h"

#include <string.h>

/* ---- enumerations ------------------------------------------------------------------- */

#define ENUM_ITEMS_MAX 3

struct compi_t_enum {
    const char *param; /* the parameter, and the enumeration's name */
    int text;          /* 1: the items are the parameter's string values */
    int n;
    struct {
        int value;
        const char *name;
    } items[ENUM_ITEMS_MAX]; /* ascending values */
};

static struct compi_t_enum enums[] = {
    {.param = "btl_sm_single_copy",
     .text = 1,
     .n = 3,
     .items = {{0, "auto"}, {1, "cma"}, {2, "none"}}},
    {.param = "btl_sm_backing", .text = 1, .n = 2, .items = {{0, "memfd"}, {1, "shm"}}},
    {.param = "btl_ofi_local", .n = 3, .items = {{-1, "unless-sm"}, {0, "no"}, {1, "yes"}}},
    {.param = "coll_check_determinism", .n = 3, .items = {{0, "off"}, {1, "on"}, {2, "at-call"}}},
    {.param = "coll_verbose", .n = 3, .items = {{0, "quiet"}, {1, "closures"}, {2, "trees"}}},
};
#define NENUMS ((int)(sizeof(enums) / sizeof(enums[0])))

static int enum_valid(MPI_T_enum e)
{
    for (int i = 0; i < NENUMS; i++) {
        if (e == &enums[i]) {
            return 1;
        }
    }
    return 0;
}

MPI_T_enum mpit_enum_of(const char *param)
{
    for (int i = 0; i < NENUMS; i++) {
        if (strcmp(enums[i].param, param) == 0) {
            return &enums[i];
        }
    }
    return MPI_T_ENUM_NULL;
}

int mpit_enum_is_text(MPI_T_enum e)
{
    return e->text;
}

int mpit_enum_find(MPI_T_enum e, const char *text, int *value_p)
{
    for (int i = 0; i < e->n; i++) {
        if (strcmp(e->items[i].name, text) == 0) {
            *value_p = e->items[i].value;
            return 1;
        }
    }
    return 0;
}

int mpit_enum_clamp(MPI_T_enum e, int v)
{
    int lo = e->items[0].value, hi = e->items[e->n - 1].value;
    return v < lo ? lo : v > hi ? hi : v;
}

static int t_enum_get_info_impl(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    if (!enum_valid(enumtype)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (num == NULL) {
        return MPI_T_ERR_INVALID;
    }
    *num = enumtype->n;
    mpit_string_out(enumtype->param, name, name_len);
    return MPI_SUCCESS;
}

static int t_enum_get_item_impl(MPI_T_enum enumtype, int index, int *value, char *name,
                                int *name_len)
{
    if (!enum_valid(enumtype)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (index < 0 || index >= enumtype->n) {
        return MPI_T_ERR_INVALID_ITEM;
    }
    if (value == NULL) {
        return MPI_T_ERR_INVALID;
    }
    *value = enumtype->items[index].value;
    mpit_string_out(enumtype->items[index].name, name, name_len);
    return MPI_SUCCESS;
}

/* ---- categories --------------------------------------------------------------------- */

enum { CAT_COLL, CAT_PML, CAT_BTL, CAT_BTL_SELF, CAT_BTL_SM, CAT_BTL_OFI, CAT_RUNTIME, NCATS };

static const struct {
    const char *name;
    int parent; /* the category that lists this one, or -1 */
    const char *desc;
} cats[NCATS] = {
    [CAT_COLL] = {.name = "collectives",
                  .parent = -1,
                  .desc = "Collectives: the Scheme config files and their reconfiguration, the "
                          "closure caches (hits and misses per communicator), summaries"},
    [CAT_PML] = {.name = "pml",
                 .parent = -1,
                 .desc =
                     "Point-to-point messaging: matching queues, eager and rendezvous protocols, "
                     "waiting"},
    [CAT_BTL] = {.name = "btl",
                 .parent = -1,
                 .desc = "Transports: which are loaded and how; one subcategory per transport"},
    [CAT_BTL_SELF] = {.name = "btl_self",
                      .parent = CAT_BTL,
                      .desc = "The transport of a process to itself"},
    [CAT_BTL_SM] = {.name = "btl_sm",
                    .parent = CAT_BTL,
                    .desc = "Shared memory between the processes of a host"},
    [CAT_BTL_OFI] = {.name = "btl_ofi", .parent = CAT_BTL, .desc = "libfabric, between hosts"},
    [CAT_RUNTIME] = {.name = "runtime",
                     .parent = -1,
                     .desc =
                         "The runtime: process start-up, hosts and placement, yielding the CPU"},
};

/* the category of the variable `name' (control or performance) */
static int cat_of(const char *name)
{
    static const struct {
        const char *prefix;
        int cat;
    } rules[] = {
        {"btl_self_", CAT_BTL_SELF}, {"btl_sm_", CAT_BTL_SM},
        {"btl_ofi_", CAT_BTL_OFI},   {"btl", CAT_BTL},
        {"module_path", CAT_BTL},    {"pml_", CAT_PML},
        {"coll_", CAT_COLL},
    };
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        if (strncmp(name, rules[i].prefix, strlen(rules[i].prefix)) == 0) {
            return rules[i].cat;
        }
    }
    return CAT_RUNTIME;
}

enum member { MEMBER_CVAR, MEMBER_PVAR, MEMBER_CAT };

/* the members of category `cat' of one sort, in index order: the first `len' into
   indices (when not NULL); returns how many there are */
static int members(int cat, enum member sort, int len, int *indices)
{
    int n = 0, total = sort == MEMBER_CVAR   ? mpit_cvar_count()
                       : sort == MEMBER_PVAR ? mpit_pvar_count()
                                             : NCATS;
    for (int i = 0; i < total; i++) {
        int in = sort == MEMBER_CVAR   ? cat_of(mpit_cvar_name(i)) == cat
                 : sort == MEMBER_PVAR ? cat_of(mpit_pvar_name(i)) == cat
                                       : cats[i].parent == cat;
        if (in) {
            if (indices != NULL && n < len) {
                indices[n] = i;
            }
            n++;
        }
    }
    return n;
}

static int t_category_get_num_impl(int *num_cat)
{
    *num_cat = NCATS;
    return MPI_SUCCESS;
}

static int t_category_get_info_impl(int cat_index, char *name, int *name_len, char *desc,
                                    int *desc_len, int *num_cvars, int *num_pvars,
                                    int *num_categories)
{
    if (cat_index < 0 || cat_index >= NCATS) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    mpit_string_out(cats[cat_index].name, name, name_len);
    mpit_string_out(cats[cat_index].desc, desc, desc_len);
    if (num_cvars != NULL) {
        *num_cvars = members(cat_index, MEMBER_CVAR, 0, NULL);
    }
    if (num_pvars != NULL) {
        *num_pvars = members(cat_index, MEMBER_PVAR, 0, NULL);
    }
    if (num_categories != NULL) {
        *num_categories = members(cat_index, MEMBER_CAT, 0, NULL);
    }
    return MPI_SUCCESS;
}

static int t_category_get_index_impl(const char *name, int *cat_index)
{
    for (int i = 0; i < NCATS; i++) {
        if (strcmp(cats[i].name, name) == 0) {
            *cat_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

/* the three MPI_T_category_get_*: checks, then the members */
static int get_members(int cat_index, enum member sort, int len, int *indices)
{
    if (cat_index < 0 || cat_index >= NCATS) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (len < 0 || (len > 0 && indices == NULL)) {
        return MPI_T_ERR_INVALID;
    }
    (void)members(cat_index, sort, len, indices);
    return MPI_SUCCESS;
}

static int t_category_get_cvars_impl(int cat_index, int len, int indices[])
{
    return get_members(cat_index, MEMBER_CVAR, len, indices);
}

static int t_category_get_pvars_impl(int cat_index, int len, int indices[])
{
    return get_members(cat_index, MEMBER_PVAR, len, indices);
}

static int t_category_get_categories_impl(int cat_index, int len, int indices[])
{
    return get_members(cat_index, MEMBER_CAT, len, indices);
}

static int t_category_changed_impl(int *update_number)
{
    /* the categories are fixed; their lists of control variables grow with the registry */
    *update_number = mpit_cvar_count();
    return MPI_SUCCESS;
}

#include "core/mpi/gen/mpit_cat.c"
