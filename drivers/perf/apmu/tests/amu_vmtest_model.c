// SPDX-License-Identifier: GPL-2.0
/*
 * The AMU register model, built a second time for apmu_amu_test.ko (an object file can
 * belong to one module only).
 */
#include "amu_model.c"
