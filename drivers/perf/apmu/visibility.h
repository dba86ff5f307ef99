/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the symbols the test-only fake units (tests/amu_vmtest.c, tests/pcs_vmtest.c)
 * need, exported as EXPORT_SYMBOL_IF_KUNIT() does, into their own namespace "APMU_FAKE".
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
