#include "tests/mpi/io_test.h"
int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_atomic");
    return mt_finish();
}
