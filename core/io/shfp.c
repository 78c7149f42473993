/*
 * shfp.c -- the shared file pointer: one MPI_Offset (in etypes) at the start of a sidecar
 * file beside the data file, read and updated under an fcntl write lock on it.  fcntl
 * locks hold between hosts that share the directory (NFS included), which shared memory
 * would not.  The sidecar is hidden (".NAME.shfp.ID"), made by one rank at open and
 * removed by one rank at close; ID (agreed at open) keeps two opens of one file apart.
 */
#include "core/io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int side_lock(int fd, int type)
{
    struct flock fl = {.l_type = (short)type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(fd, F_SETLKW, &fl) < 0) {
        if (errno != EINTR) {
            return -errno;
        }
    }
    return 0;
}

int io_shfp_open(compi_file_t *fh, unsigned long id, int create)
{
    const char *slash = strrchr(fh->path, '/');
    int dirlen = slash != NULL ? (int)(slash - fh->path + 1) : 0;
    size_t len = strlen(fh->path) + 48;
    char *p = malloc(len);

    if (p == NULL) {
        return -ENOMEM;
    }
    snprintf(p, len, "%.*s.%s.shfp.%lx", dirlen, fh->path, fh->path + dirlen, id);
    fh->side_fd = open(p, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0), 0600);
    if (fh->side_fd < 0) {
        int err = errno;
        free(p);
        return -err;
    }
    fh->side_path = p;
    if (create) {
        return io_shfp_set(fh, 0);
    }
    return 0;
}

void io_shfp_close(compi_file_t *fh, int remove)
{
    if (fh->side_fd >= 0) {
        close(fh->side_fd);
        fh->side_fd = -1;
    }
    if (remove && fh->side_path != NULL) {
        unlink(fh->side_path);
    }
}

static int side_read(int fd, MPI_Offset *val_p)
{
    MPI_Offset v = 0;
    ssize_t r = pread(fd, &v, sizeof(v), 0);
    if (r < 0) {
        return -errno;
    }
    *val_p = r == (ssize_t)sizeof(v) ? v : 0;
    return 0;
}

static int side_write(int fd, MPI_Offset v)
{
    return pwrite(fd, &v, sizeof(v), 0) == (ssize_t)sizeof(v) ? 0 : (errno ? -errno : -EIO);
}

int io_shfp_fetch_add(compi_file_t *fh, MPI_Offset delta, MPI_Offset *old_p)
{
    int rc = side_lock(fh->side_fd, F_WRLCK);
    if (rc == 0) {
        rc = side_read(fh->side_fd, old_p);
        if (rc == 0 && delta != 0) {
            rc = side_write(fh->side_fd, *old_p + delta);
        }
        side_lock(fh->side_fd, F_UNLCK);
    }
    return rc;
}

int io_shfp_set(compi_file_t *fh, MPI_Offset val)
{
    int rc = side_lock(fh->side_fd, F_WRLCK);
    if (rc == 0) {
        rc = side_write(fh->side_fd, val);
        side_lock(fh->side_fd, F_UNLCK);
    }
    return rc;
}

int io_shfp_get(compi_file_t *fh, MPI_Offset *val_p)
{
    return io_shfp_fetch_add(fh, 0, val_p);
}
