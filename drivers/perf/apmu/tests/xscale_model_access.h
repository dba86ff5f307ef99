/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XScale backend's CP14 register accessors on the KUnit register model: the names
 * and signatures of xscale/arch_cp14.h, each one register access of the model selected
 * with apmu_xs_model_select(). Included first by the file that compiles the backend for
 * the tests (xscale_test.c); the backend then skips its own accessors
 * (APMU_XSCALE_ACCESSORS).
 */
#ifndef __APMU_XSCALE_MODEL_ACCESS_H
#define __APMU_XSCALE_MODEL_ACCESS_H

#define APMU_XSCALE_ACCESSORS

#include "xscale_model.h"

/* The backend compiled over these accessors (xscale_test.c) */
struct apmu_pmu_ops;
extern const struct apmu_pmu_ops apmu_xscale_model_ops;

static inline u32 xscale1_read_pmnc(void)
{
	return apmu_xs_model_read(APMU_XS_PMNC);
}

static inline void xscale1_write_pmnc(u32 val)
{
	apmu_xs_model_write(APMU_XS_PMNC, val);
}

static inline u32 xscale1_read_ccnt(void)
{
	return apmu_xs_model_read(APMU_XS_CCNT);
}

static inline void xscale1_write_ccnt(u32 val)
{
	apmu_xs_model_write(APMU_XS_CCNT, val);
}

static inline u32 xscale1_read_pmn(int n)
{
	return apmu_xs_model_read(APMU_XS_PMN0 + n);
}

static inline void xscale1_write_pmn(int n, u32 val)
{
	apmu_xs_model_write(APMU_XS_PMN0 + n, val);
}

static inline u32 xscale2_read_pmnc(void)
{
	return apmu_xs_model_read(APMU_XS_PMNC);
}

static inline void xscale2_write_pmnc(u32 val)
{
	apmu_xs_model_write(APMU_XS_PMNC, val);
}

static inline u32 xscale2_read_ccnt(void)
{
	return apmu_xs_model_read(APMU_XS_CCNT);
}

static inline void xscale2_write_ccnt(u32 val)
{
	apmu_xs_model_write(APMU_XS_CCNT, val);
}

static inline u32 xscale2_read_inten(void)
{
	return apmu_xs_model_read(APMU_XS_INTEN);
}

static inline void xscale2_write_inten(u32 val)
{
	apmu_xs_model_write(APMU_XS_INTEN, val);
}

static inline u32 xscale2_read_flag(void)
{
	return apmu_xs_model_read(APMU_XS_FLAG);
}

static inline void xscale2_write_flag(u32 val)
{
	apmu_xs_model_write(APMU_XS_FLAG, val);
}

static inline u32 xscale2_read_evtsel(void)
{
	return apmu_xs_model_read(APMU_XS_EVTSEL);
}

static inline void xscale2_write_evtsel(u32 val)
{
	apmu_xs_model_write(APMU_XS_EVTSEL, val);
}

static inline u32 xscale2_read_pmn(int n)
{
	return apmu_xs_model_read(APMU_XS_PMN0 + n);
}

static inline void xscale2_write_pmn(int n, u32 val)
{
	apmu_xs_model_write(APMU_XS_PMN0 + n, val);
}

#endif /* __APMU_XSCALE_MODEL_ACCESS_H */
