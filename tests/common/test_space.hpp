#pragma once
// The execution space this copy of a test file runs on. tests/CMakeLists.txt compiles every test
// file that names TestSpace once per backend of the build (Serial, OpenMP, Cuda, ...), each copy
// with PORTAMC_TEST_SPACE set to its space; a test that compares backends with each other uses
// portamc::for_each_space instead (portamc/backends.hpp).
#include <Kokkos_Core.hpp>

#ifndef PORTAMC_TEST_SPACE
#error "PORTAMC_TEST_SPACE is set by tests/CMakeLists.txt for files that name TestSpace"
#endif

using TestSpace = PORTAMC_TEST_SPACE;
