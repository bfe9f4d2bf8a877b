# Spack recipe for portamc (Spack >= 1.0: package API v2.x, build systems
# imported from the builtin repository's spack_repo.builtin.build_systems).
#
# SPDX-License-Identifier: (Apache-2.0 OR MIT)

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Portamc(CMakePackage, CudaPackage):
    """Portable GPU-scale Monte Carlo for statistical physics, built on Kokkos
    (CUDA and/or OpenMP backends), with HDF5 output and YAML inputs."""

    # Placeholder: the address where the project will be published.
    homepage = "https://github.com/portamc/portamc"
    git = "https://github.com/portamc/portamc.git"

    version("main", branch="main")

    # ---------------------------------------------------------------- variants
    # +cuda comes from CudaPackage.
    variant("openmp", default=False, description="Use the Kokkos OpenMP host backend")
    variant("mpi", default=False, description="Build with MPI (multi-GPU runs)")
    variant("kokkos-kernels", default=True, description="Find and link Kokkos Kernels")
    variant(
        "nccl",
        default=True,
        when="+cuda+mpi",
        description="Halo exchanges over NCCL (parallel.halo_transport: nccl)",
    )
    variant(
        "cxxstd",
        default="17",
        values=("17", "20"),
        multi=False,
        description="C++ standard (PORTAMC_CXX_STANDARD); Kokkos is built with the same one",
    )

    # A Kokkos build targets exactly one GPU architecture, so, like the builtin
    # kokkos recipe, replace CudaPackage's multi-valued cuda_arch by a single value.
    variant(
        "cuda_arch",
        description="CUDA architecture (one value, e.g. 90 for H100/H200)",
        values=("none",) + CudaPackage.cuda_arch_values,
        default="none",
        multi=False,
        sticky=True,
        when="+cuda",
    )

    # ------------------------------------------------------------ dependencies
    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.22:", type="build")

    # The CMake build asks for find_package(Kokkos 3.4...<5).
    depends_on("kokkos@3.4:4")
    depends_on("kokkos+openmp", when="+openmp")
    for _std in ("17", "20"):
        depends_on(f"kokkos cxxstd={_std}", when=f"cxxstd={_std}")

    depends_on("kokkos-kernels@3.4:4", when="+kokkos-kernels")

    # CUDA goes through Kokkos' nvcc_wrapper; device lambdas (KOKKOS_LAMBDA)
    # need cuda_lambda on Kokkos <= 4. Forward the architecture to Kokkos and
    # Kokkos Kernels, the way builtin Kokkos-based recipes do.
    depends_on("kokkos+cuda+wrapper+cuda_lambda", when="+cuda")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        depends_on(
            f"kokkos-kernels+cuda cuda_arch={_arch}",
            when=f"+kokkos-kernels +cuda cuda_arch={_arch}",
        )

    depends_on("hdf5")  # C API
    depends_on("hdf5~mpi", when="~mpi")  # serial HDF5 unless +mpi
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    depends_on("yaml-cpp@0.6:")
    depends_on("random123")
    depends_on("googletest", type="test")

    # --------------------------------------------------------------- conflicts
    conflicts(
        "+cuda",
        when="cuda_arch=none",
        msg="portamc+cuda needs a GPU architecture, e.g. cuda_arch=90 for H100/H200",
    )
    conflicts(
        "^kokkos+rocm",
        when="+cuda",
        msg="CUDA and ROCm cannot be enabled together (portamc has no ROCm variant)",
    )
    conflicts(
        "^kokkos+cuda",
        when="~cuda",
        msg="Kokkos has CUDA enabled: build portamc+cuda cuda_arch=<arch> instead",
    )

    sanity_check_is_file = [
        join_path("bin", "portamc-muca"),
        join_path("include", "portamc", "version.hpp"),
    ]

    # ------------------------------------------------------------------ build
    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("PORTAMC_ENABLE_TESTS", self.run_tests),
            self.define("PORTAMC_ENABLE_BENCHMARKS", False),
            self.define("PORTAMC_ENABLE_SANITIZERS", False),
            self.define_from_variant("PORTAMC_ENABLE_MPI", "mpi"),
            self.define_from_variant("PORTAMC_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define("PORTAMC_ENABLE_NCCL", self.spec.satisfies("+nccl")),
            self.define_from_variant("PORTAMC_CXX_STANDARD", "cxxstd"),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
        ]
        if spec.satisfies("+kokkos-kernels"):
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx))
        if spec.satisfies("+nccl"):
            args.append(self.define("NCCL_ROOT", spec["nccl"].prefix))
        if spec.satisfies("+cuda"):
            # Compile with the same C++ compiler as Kokkos: nvcc_wrapper
            # (kokkos+wrapper). kokkos_cxx is a property of the kokkos *package*,
            # reached through self["kokkos"] (builtin kokkos-kernels, arborx, ...).
            args.append(self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx))
        return args

    # ----------------------------------------------------- stand-alone tests
    def test_version(self):
        """run portamc-muca --version from the install prefix"""
        exe = which(join_path(self.prefix.bin, "portamc-muca"), required=True)
        out = exe("--version", output=str, error=str)
        assert out.strip(), "portamc-muca --version printed nothing"
