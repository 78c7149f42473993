/*
 * abi_core.c -- the standard ABI layer's start: when libmpi_abi.so.1 is loaded it finds
 * compi's native functions in libmpi.so.12 (loaded before it, as its dependency) by name
 * and keeps their addresses in abi_n, and builds the hash that turns a native
 * predefined handle back into the standard's value (abi_rev).  The native library's own
 * calls between its functions stay inside it (it is linked -Bsymbolic-functions), so the
 * layer's PMPI_ functions, which have the native names, never catch them.
 *
 * Also MPI_Abi_get_version, MPI_Abi_get_info and the MPI_<Handle>_toint/_fromint pairs.
 */
#include "abi/abi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct abi_native abi_n;

void abi_native_init(void);

/* the reverse hash: (native handle, kind block) -> the standard's value; open
   addressing, at most ABI_NPRE entries in twice as many slots */
#define REV_SLOTS 2048
static struct {
    int native;
    unsigned short block;
    unsigned short abi; /* 0: empty (no predefined handle is 0) */
} rev[REV_SLOTS];

static unsigned rev_slot(int n, unsigned block)
{
    return (((unsigned)n ^ block) * 2654435761u) >> 21; /* 11 bits */
}

/* the block of a predefined value: the first value of its kind in the standard */
static unsigned block_of(unsigned v)
{
    if (v < 0x100) {
        return ABI_BLOCK_Op;
    }
    if (v < 0x140) {
        return v & ~7u;
    }
    return v < 0x180 ? ABI_BLOCK_Errhandler : (v < 0x200 ? ABI_BLOCK_Request : ABI_BLOCK_Datatype);
}

void *abi_rev(int n, unsigned block)
{
    for (unsigned s = rev_slot(n, block);; s = (s + 1) % REV_SLOTS) {
        if (rev[s].abi == 0) {
            /* not predefined: the native value itself (an error to come) */
            return (void *)(uintptr_t)(unsigned)n;
        }
        if (rev[s].native == n && rev[s].block == block) {
            return (void *)(uintptr_t)rev[s].abi;
        }
    }
}

static void *native_lib;

static void *look(const char *name)
{
    void *p = dlsym(native_lib, name);
    if (p == NULL) {
        fprintf(stderr, "libmpi_abi: %s is not in libmpi.so.12\n", name);
        abort();
    }
    return p;
}

__attribute__((constructor)) static void abi_init(void)
{
    native_lib = dlopen("libmpi.so.12", RTLD_LAZY | RTLD_NOLOAD);
    if (native_lib == NULL) {
        fprintf(stderr, "libmpi_abi: compi's libmpi.so.12 is not loaded: %s\n", dlerror());
        abort();
    }
    ABI_NATIVE_FILL(&abi_n, look);
    abi_native_init();
    /* the lowest value of each native handle wins (MPI_LONG_LONG_INT after MPI_LONG_LONG) */
    for (unsigned v = 1; v < ABI_NPRE; v++) {
        if (abi_pre[v] == 0) {
            continue;
        }
        unsigned b = block_of(v);
        unsigned s = rev_slot(abi_pre[v], b);
        while (rev[s].abi != 0 && !(rev[s].native == abi_pre[v] && rev[s].block == b)) {
            s = (s + 1) % REV_SLOTS;
        }
        if (rev[s].abi == 0) {
            rev[s].native = abi_pre[v];
            rev[s].block = (unsigned short)b;
            rev[s].abi = (unsigned short)v;
        }
    }
}

/* ---- the standard ABI's own procedures ---------------------------------------------- */

int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_get_version = PMPI_Abi_get_version

/* an info object with the sizes of the integer types */
int PMPI_Abi_get_info(MPI_Info *info)
{
    static const struct {
        const char *key;
        size_t size;
    } sizes[] = {{"mpi_aint_size", sizeof(MPI_Aint)},
                 {"mpi_count_size", sizeof(MPI_Count)},
                 {"mpi_offset_size", sizeof(MPI_Offset)}};
    if (info == NULL) {
        return MPI_ERR_ARG;
    }
    int rc = PMPI_Info_create(info);
    for (size_t i = 0; rc == MPI_SUCCESS && i < sizeof sizes / sizeof sizes[0]; i++) {
        char v[8];
        snprintf(v, sizeof v, "%zu", sizes[i].size);
        rc = PMPI_Info_set(*info, sizes[i].key, v);
    }
    return rc;
}
#pragma weak MPI_Abi_get_info = PMPI_Abi_get_info

/* an int for a handle (and back): the native handle, which is also what compi's Fortran
   bindings use */
#define ABI_TOINT(Name, T)                                                                         \
    int PMPI_##Name##_toint(MPI_##T h)                                                             \
    {                                                                                              \
        return abi_h2n(h);                                                                         \
    }                                                                                              \
    MPI_##T PMPI_##Name##_fromint(int i)                                                           \
    {                                                                                              \
        return abi_n2h(T, i);                                                                      \
    }                                                                                              \
    _Pragma(ABI_STR(weak MPI_##Name##_toint = PMPI_##Name##_toint))                                \
        _Pragma(ABI_STR(weak MPI_##Name##_fromint = PMPI_##Name##_fromint))
#define ABI_STR(x) #x
ABI_TOINT(Comm, Comm)
ABI_TOINT(Errhandler, Errhandler)
ABI_TOINT(Group, Group)
ABI_TOINT(Info, Info)
ABI_TOINT(Message, Message)
ABI_TOINT(Op, Op)
ABI_TOINT(Request, Request)
ABI_TOINT(Session, Session)
ABI_TOINT(Type, Datatype)
ABI_TOINT(Win, Win)
