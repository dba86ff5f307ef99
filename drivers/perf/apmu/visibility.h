/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: what the test-only fake units reach. tests/amu_vmtest.c and tests/pcs_vmtest.c
 * are modules, built with the KUnit suites, that hand a unit over a register model to
 * apmu_amu.ko or apmu_pcs.ko, so that VM tests drive the real sysfs files and PMUs. As
 * <kunit/visibility.h>'s EXPORT_SYMBOL_IF_KUNIT(), the symbols they need are exported
 * only when CONFIG_KUNIT is set, in one namespace of their own, "APMU_FAKE", which only
 * the fakes import.
 */
#ifndef __APMU_VISIBILITY_H
#define __APMU_VISIBILITY_H

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/kconfig.h>

#include "compat.h"	/* EXPORT_SYMBOL_NS_GPL() with a string namespace before 6.13 */

#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_FAKE_IF_KUNIT(sym)	EXPORT_SYMBOL_NS_GPL(sym, "APMU_FAKE")
#else
/* nothing is exported: a reference the linker discards checks that the symbol exists */
#define EXPORT_SYMBOL_FAKE_IF_KUNIT(sym)	__ADDRESSABLE(sym)
#endif

#endif /* __APMU_VISIBILITY_H */
