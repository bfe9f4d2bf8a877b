# Copyright 2026, the portamc developers. See LICENSE at the top of the portamc repository.
#
# SPDX-License-Identifier: BSD-3-Clause
#
# Spack recipe for portamc (Spack >= 1.0: package API v2.x, build systems
# imported from the builtin repository's spack_repo.builtin.build_systems).
# The recipe is part of portamc and is under portamc's licence, not Spack's.

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Portamc(CMakePackage, CudaPackage):
    """Portable GPU-scale Monte Carlo for statistical physics, built on Kokkos
    (CUDA and/or OpenMP backends), with HDF5 output and YAML inputs."""

    # Placeholder: the address where the project will be published.
    homepage = "https://github.com/portamc/portamc"
    git = "https://github.com/portamc/portamc.git"

    # GitHub handle of the maintainers' account, registered together with the
    # github.com/portamc organization at publication (spack/README.md, "Maintainers").
    maintainers("portamc-developers")

    license("BSD-3-Clause")

    # Numbered versions follow project(portamc VERSION ...) in CMakeLists.txt. The tag
    # v0.1.0 is created at publication (spack/README.md, "Versions"). "main" sorts above
    # every number, but the concretizer prefers numbered versions: ask for it with @main.
    version("main", branch="main")
    version("0.1.0", tag="v0.1.0")

    # ---------------------------------------------------------------- variants
    # +cuda comes from CudaPackage.
    variant("openmp", default=False, description="Use the Kokkos OpenMP host backend")
    variant("mpi", default=False, description="Build with MPI (multi-GPU runs)")
    variant("kokkos-kernels", default=True, description="Find and link Kokkos Kernels")
    # The CMake project leaves BUILD_SHARED_LIBS unset, so it builds static libraries.
    variant("shared", default=False, description="Build shared libraries (BUILD_SHARED_LIBS)")
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
    depends_on("kokkos-kernels+openmp", when="+kokkos-kernels+openmp")

    # CUDA goes through Kokkos' nvcc_wrapper; device lambdas (KOKKOS_LAMBDA)
    # need cuda_lambda on Kokkos <= 4. Forward the architecture to Kokkos, Kokkos
    # Kernels and NCCL, the way builtin Kokkos-based recipes do. NCCL refuses
    # cuda_arch=none, so without the forwarding the solver could only satisfy
    # +nccl by turning it off (and an explicit +nccl failed).
    depends_on("kokkos+cuda+wrapper+cuda_lambda", when="+cuda")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        depends_on(
            f"kokkos-kernels+cuda cuda_arch={_arch}",
            when=f"+kokkos-kernels +cuda cuda_arch={_arch}",
        )
        depends_on(f"nccl cuda_arch={_arch}", when=f"+nccl cuda_arch={_arch}")

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
    # portamc's shared libraries link Kokkos in; a static Kokkos must then be
    # position-independent (kokkos~shared defaults to ~pic).
    conflicts(
        "^kokkos~shared~pic",
        when="+shared",
        msg="portamc+shared needs kokkos+shared or kokkos+pic",
    )

    sanity_check_is_file = [
        join_path("bin", "portamc-muca"),
        join_path("include", "portamc", "version.hpp"),
    ]

    # ------------------------------------------------------------------ build
    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
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
