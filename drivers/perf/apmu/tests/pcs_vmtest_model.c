// SPDX-License-Identifier: GPL-2.0
/*
 * The frame model, built a second time for apmu_pcs_test.ko (an object may belong to
 * one module only).
 */
#include "pcs_model.c"
