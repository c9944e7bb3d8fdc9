"""The test suite. Run first, before any test module loads numpy:

One thread for each numerical library, in the test processes and in the commands they start. The suite
runs two test processes on two cores, and OpenBLAS's threads, which spin while they wait, took turns
from the other process: a whole run took 1,084 processor seconds with one thread each, 1,138 without.
"""

import os

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")
