/*
 * test_io_view.c -- MPI-IO views without MPI_Init: io_view_set flattens a filetype into
 * runs, io_view_map turns a range of view positions into file ranges.  A view whose tiles
 * are all data (bytes, or a contiguous filetype) maps a range of any length to one file
 * range at once; a view with holes gives one range per tile's run.
 *
 * Expected ranges are computed by hand.
 */
#include "core/dt/dt.h"
#include "core/io/file.h"
#include "tests/unit/dt_test.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdlib.h>

/* maps [pos, pos + n) of view v and checks the ranges against want[0..nwant) */
static void check_map(const io_view_t *v, MPI_Offset pos, MPI_Offset n, const io_run_t *want,
                      size_t nwant)
{
    io_run_t *segs = NULL;
    size_t ns = 0;
    ck_assert_int_eq(io_view_map(v, pos, n, &segs, &ns), 0);
    ck_assert_uint_eq(ns, nwant);
    for (size_t i = 0; i < nwant; i++) {
        ck_assert_int_eq(segs[i].off, want[i].off);
        ck_assert_int_eq(segs[i].len, want[i].len);
    }
    free(segs);
}

/* a terabyte through a view of bytes: one range, at once (a step per byte would run
   into the time limit) */
START_TEST(byte_view_maps_a_terabyte_to_one_range)
{
    io_view_t v = {0};
    ck_assert_int_eq(io_view_set(&v, 100, T(MPI_BYTE), T(MPI_BYTE), 1), 0);
    const MPI_Offset tb = (MPI_Offset)1 << 40;
    const io_run_t want[] = {{105, tb}};
    check_map(&v, 5, tb, want, 1);
    io_view_clear(&v);
}
END_TEST

/* a contiguous filetype of 4 ints: tiles abut, so a range across 2^36 tiles that starts
   inside one is still one range */
START_TEST(contiguous_filetype_maps_across_tiles_to_one_range)
{
    compi_datatype_t *ft = NULL;
    ck_assert_int_eq(dt_create_contiguous(4, T(MPI_INT), &ft), COMPI_OK);
    io_view_t v = {0};
    ck_assert_int_eq(io_view_set(&v, 8, T(MPI_INT), ft, 4), 0);
    const MPI_Offset n = (MPI_Offset)1 << 40;
    const io_run_t want[] = {{8 + 12, n}};
    check_map(&v, 12, n, want, 1);
    io_view_clear(&v);
    dt_release(ft);
}
END_TEST

/* an int every 8 bytes (MPI_INT resized to extent 8): one range per tile, starting in
   the middle of the first tile's int */
START_TEST(view_with_holes_gives_a_range_per_tile)
{
    compi_datatype_t *ft = NULL;
    ck_assert_int_eq(dt_create_resized(T(MPI_INT), 0, 8, &ft), COMPI_OK);
    io_view_t v = {0};
    ck_assert_int_eq(io_view_set(&v, 100, T(MPI_BYTE), ft, 1), 0);
    /* data bytes 2..11: 2 bytes of tile 0, all 4 of tile 1, all 4 of tile 2 */
    const io_run_t want[] = {{102, 2}, {108, 4}, {116, 4}};
    check_map(&v, 2, 10, want, 3);
    io_view_clear(&v);
    dt_release(ft);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {byte_view_maps_a_terabyte_to_one_range,
                            contiguous_filetype_maps_across_tiles_to_one_range,
                            view_with_holes_gives_a_range_per_tile};
    const unit_case_t tc = {
        .suite = "io_view", .name = "map", .setup = setup, .teardown = teardown, .timeout_s = 20};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
