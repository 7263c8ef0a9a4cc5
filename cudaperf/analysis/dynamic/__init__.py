"""The dynamic side: kernels run on a GPU, Nsight Compute counters read back as measured reports
(``cudaperf.profile/1``), and the static estimates checked against them.

Reading an existing ``ncu --csv --page raw`` file and cross-checking need no GPU.  Running a kernel
needs CuPy and, for counters, ``ncu``; device identity comes from nvidia-ml-py.  Those packages are
imported only inside the functions that use them, so importing this package stays cheap.
"""
