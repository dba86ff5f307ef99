// SPDX-License-Identifier: GPL-2.0
/*
 * apmu PC sampling on hardware: finding each core's external PMU frame (and, for its
 * power and lock state, the core's external debug frame) and reaching them over MMIO.
 *
 * Frames come from the device tree (Documentation/devicetree/bindings/perf/
 * arm,pc-sample-pmu.yaml: one node per CPU, a phandle to the CPU, as CoreSight CPU debug
 * frames are described) or, for boards whose tree has none, from the pcs= parameter.
 * Then, for the CPUs still without a unit, the external debug frames the device tree
 * already describes as "arm,coresight-cpu-debug" nodes (Documentation/devicetree/
 * bindings/arm/arm,coresight-cpu-debug.yaml): on Armv8.0 cores (FEAT_PCSRv8) the PC
 * sample registers are there (EDPCSR). A CPU with both uses its PMU frame. Such a debug
 * frame is mapped but not claimed: the in-tree coresight-cpu-debug driver binds the same
 * AMBA device and claims the region (devm_ioremap_resource()), and both drivers work on
 * it in either load order. apmu reads it and writes only its software lock (EDLAR), as
 * that driver does; it never writes EDOSLAR or EDPRCR as that driver's panic dump does.
 *
 * A wrong address must never become an abort: a read of an address nothing answers is
 * an external abort on Arm (QEMU's virt machine raises one too). So before the first read
 * a frame must be 4 KiB aligned, outside System RAM and any memory the kernel knows
 * (pfn_valid(): no-map carve-outs are memory too), outside reserved regions
 * (IORES_DESC_RESERVED, and every /reserved-memory node: firmware, secure memory, whose
 * reads abort), claimed with request_mem_region() (so no other driver owns it), and - for
 * the parameter, which nothing vouches for - lie inside a region some other device tree
 * node describes. Only then are its identification
 * registers read (PMDEVARCH: Arm PMUv3; PMDEVID.PCSample: PC sampling), after the core
 * has answered an IPI (so it is up: apmu_pcs_unit_add()) and its power and lock state
 * (EDPRSR) has been checked. Anything else is refused with one message. With FEAT_DoPD
 * (Armv8.3+) the debug frame's EDPRSR and EDDEVARCH are in the core power domain too, so
 * they are read only while the CPU is online and out of CPU PM, like the PMU frame.
 *
 * A debug frame beside a PMU frame is only read at EDPRSR and EDDEVARCH, and not
 * claimed: the CoreSight CPU debug driver may own it. A read of EDPRSR clears its sticky
 * bits (SPD, SR, SDR, SPMAD, SDAD, STAD): it is read only where the check before an
 * access to the frame needs it (once per sample, per sysfs access), never to poll.
 * Without a debug frame, the power state is what Linux knows (CPU online and not in a
 * CPU PM low-power state) and the locks are taken as clear: Linux clears the OS lock on
 * every CPU it brings up and never sets the OS double lock.
 */
#define pr_fmt(fmt) "apmu_pcs: " fmt

#include <linux/bitfield.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/virt.h>
#include <kunit/visibility.h>

#include "pcs.h"
#include "internal.h"
#include "mmio.h"

/*
 * The debug frames of arm,coresight-cpu-debug nodes are read only on request: their APB
 * clock and power domain belong to the AMBA device (the in-tree coresight-cpu-debug
 * driver holds them only while it probes), and apmu has no handle on them, so on a board
 * that gates them even the first EDPRSR read would hang or abort.
 */
static bool debug_dt;
module_param(debug_dt, bool, 0444);
MODULE_PARM_DESC(debug_dt,
		 "Sample from the arm,coresight-cpu-debug frames of the device tree (only where the board keeps their debug clock and power domain on)");

/* Physical addresses to map: unsafe, so the kernel is tainted when it is used */
static char *pcs;
module_param_unsafe(pcs, charp, 0444);
MODULE_PARM_DESC(pcs,
		 "PC-sampling frames when the device tree has none: CPU:PMU_FRAME[:DEBUG_FRAME],... (physical addresses; taints the kernel)");

/**
 * struct apmu_pcs_mmio - a unit on a memory-mapped frame
 * @unit: the unit
 * @pa: the PMU frame's physical address
 * @node: in apmu_pcs_mmio_list
 */
struct apmu_pcs_mmio {
	struct apmu_pcs_unit unit;
	phys_addr_t pa;
	struct list_head node;
};

static LIST_HEAD(apmu_pcs_mmio_list);

static u32 pcs_mmio_read(struct apmu_pcs_unit *u, unsigned int off)
{
	return readl(u->base + off);
}

static void pcs_mmio_write(struct apmu_pcs_unit *u, unsigned int off, u32 val)
{
	writel(val, u->base + off);
}

/*
 * EDPRSR from the debug frame; without one, the state Linux tracks. With FEAT_DoPD
 * EDPRSR is in the core power domain: never read unless the CPU is online and out of
 * CPU PM (apmu_pcs_check() checks first; this is the backend's own guard).
 */
static u32 pcs_mmio_prsr(struct apmu_pcs_unit *u)
{
	lockdep_assert_held(&u->lock);
	if (!u->online || u->pm_off)
		return 0;
	if (u->dbg)
		return readl(u->dbg + APMU_EDPRSR);
	return APMU_EDPRSR_PU;
}

/*
 * EDDEVARCH of the debug frame: called by apmu_pcs_identify() with the unit's lock held
 * and the CPU online and out of CPU PM (FEAT_DoPD: the frame may be in the core power
 * domain), after apmu_pcs_unit_add() has heard from the CPU itself.
 */
static int pcs_mmio_probe(struct apmu_pcs_unit *u)
{
	u32 arch;
	u64 aff;

	lockdep_assert_held(&u->lock);
	if (!u->dbg)
		return 0;
	if (!u->online || u->pm_off)
		return -EAGAIN;
	arch = readl(u->dbg + APMU_PMDEVARCH);
	if (FIELD_GET(APMU_DEVARCH_ARCHITECT, arch) != APMU_ARCHITECT_ARM ||
	    !(arch & APMU_DEVARCH_PRESENT) ||
	    (FIELD_GET(APMU_DEVARCH_ARCHID, arch) & APMU_ARCHID_DEBUG_MASK) !=
	    APMU_ARCHPART_DEBUG) {
		pr_warn("cpu%d: EDDEVARCH %#x is not Arm external debug\n", u->cpu, arch);
		return -ENXIO;
	}
	/* The debug frame of another CPU would guard the wrong core's power state */
	aff = ((u64)readl(u->dbg + APMU_PMDEVAFF1) << 32 | readl(u->dbg + APMU_PMDEVAFF0)) &
	      APMU_DEVAFF_MASK;
	if (aff != (u->mpidr & APMU_DEVAFF_MASK)) {
		pr_warn("cpu%d: EDDEVAFF %#llx is not the CPU's MPIDR %#llx\n", u->cpu,
			aff, u->mpidr & APMU_DEVAFF_MASK);
		return -EXDEV;
	}
	return 0;
}

VISIBLE_IF_KUNIT const struct apmu_pcs_ops apmu_pcs_mmio_ops = {
	.read = pcs_mmio_read,
	.write = pcs_mmio_write,
	.prsr = pcs_mmio_prsr,
	.probe = pcs_mmio_probe,
};
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_mmio_ops);

/* Is @np /reserved-memory or below it? */
static bool pcs_in_reserved_memory_node(struct device_node *np)
{
	for (; np; np = np->parent)
		if (of_node_name_eq(np, "reserved-memory") && np->parent &&
		    !np->parent->parent)
			return true;
	return false;
}

/* Does a /reserved-memory region with a reg meet the frame at @pa? (A dynamic one, size
 * only, is placed in System RAM, which is refused before.)
 */
static bool pcs_reserved_memory(phys_addr_t pa)
{
	struct device_node *rmem, *np;
	struct resource r;
	bool hit = false;
	int i;

	rmem = of_find_node_by_path("/reserved-memory");
	if (!rmem)
		return false;
	for_each_child_of_node(rmem, np) {
		for (i = 0; !hit && !of_address_to_resource(np, i, &r); i++)
			hit = r.start < pa + APMU_PCS_FRAME_SIZE && pa <= r.end;
		if (hit) {
			of_node_put(np);
			break;
		}
	}
	of_node_put(rmem);
	return hit;
}

/*
 * Does a device tree node's reg, other than memory's, cover the 4 KiB frame at @pa? Only
 * an available node's (status absent, "okay" or "ok"): "disabled" is how a board says
 * "do not touch" (a Secure-only device, a core not fitted), and a read there aborts.
 */
static bool pcs_described(phys_addr_t pa)
{
	struct device_node *np;
	struct resource r;
	int i;

	for (np = of_find_all_nodes(NULL); np; np = of_find_all_nodes(np)) {
		/* memory and carve-outs of it describe no device */
		if (of_node_is_type(np, "memory") || pcs_in_reserved_memory_node(np) ||
		    !of_device_is_available(np))
			continue;
		for (i = 0; !of_address_to_resource(np, i, &r); i++) {
			if (r.start <= pa && pa + APMU_PCS_FRAME_SIZE - 1 <= r.end) {
				of_node_put(np);
				return true;
			}
		}
	}
	return false;
}

/**
 * pcs_addr_refused() - the checks that need no access to the frame
 * @pa: the frame's physical address
 * @param: it comes from the pcs= parameter (nothing vouches for it)
 *
 * Return: NULL, or why the address is refused (pr_warn()ed by the caller, once).
 */
VISIBLE_IF_KUNIT const char *pcs_addr_refused(phys_addr_t pa, bool param)
{
	bool described;

	if (!IS_ALIGNED(pa, APMU_PCS_FRAME_SIZE))
		return "not 4 KiB aligned";
	if (region_intersects(pa, APMU_PCS_FRAME_SIZE, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT)
		return "System RAM";
	if (region_intersects(pa, APMU_PCS_FRAME_SIZE, IORESOURCE_MEM,
			      IORES_DESC_RESERVED) != REGION_DISJOINT || pcs_reserved_memory(pa))
		return "reserved memory (firmware or secure: reads abort)";
	described = pcs_described(pa);
	/*
	 * No-map memory (not System RAM) still has struct pages: memory, not MMIO. But
	 * pfn_valid() is true for every page of a boot section (128 MiB with 4 KiB pages)
	 * that holds some RAM: a frame a device tree node describes is a device, whatever
	 * section it shares.
	 */
	if (!described && pfn_valid(PHYS_PFN(pa)))
		return "memory (pfn_valid), not a device";
	if (param && !described)
		return "outside every region the device tree describes (unbacked addresses abort)";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pcs_addr_refused);

/*
 * The debug frame, for EDPRSR: mapped, not claimed, not read here. EDDEVARCH is checked
 * by pcs_mmio_probe() once the CPU is known to be up (with FEAT_DoPD the frame is not
 * readable while the core is powered down).
 */
static const char *pcs_map_debug(struct apmu_pcs_unit *u, phys_addr_t dbg, bool param)
{
	const char *why = pcs_addr_refused(dbg, param);

	if (why)
		return why;
	u->dbg = ioremap(dbg, APMU_PCS_FRAME_SIZE);
	if (!u->dbg)
		return "debug frame cannot be mapped";
	return NULL;
}

static void pcs_mmio_free(struct apmu_pcs_mmio *f)
{
	if (f->unit.dbg && f->unit.dbg != f->unit.base)
		iounmap(f->unit.dbg);
	if (f->unit.base)
		iounmap(f->unit.base);
	if (f->unit.res)
		release_mem_region(f->pa, APMU_PCS_FRAME_SIZE);
	kfree(f);
}

/* Has @cpu a unit on a memory-mapped frame already? */
static bool pcs_mmio_has_cpu(int cpu)
{
	struct apmu_pcs_mmio *f;

	list_for_each_entry(f, &apmu_pcs_mmio_list, node)
		if (f->unit.cpu == cpu)
			return true;
	return false;
}

/*
 * One frame of @kind at @pa: for the PMU kind, @dbg is its debug frame (for EDPRSR), 0
 * when there is none; the debug kind is its own debug frame (@dbg unused), shared with
 * the CoreSight CPU debug driver, so never claimed. @src names where it came from for
 * the message.
 */
static void pcs_mmio_add(int cpu, enum apmu_pcs_kind kind, phys_addr_t pa, phys_addr_t dbg,
			 bool param, const char *src)
{
	bool debug = kind == APMU_PCS_KIND_DEBUG;
	struct apmu_pcs_mmio *f;
	const char *why;
	int ret;

	why = pcs_addr_refused(pa, param);
	if (why)
		goto refuse;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		why = "out of memory";
		goto refuse;
	}
	f->pa = pa;
	f->unit.cpu = cpu;
	f->unit.kind = kind;
	f->unit.ops = &apmu_pcs_mmio_ops;
	f->unit.owner = THIS_MODULE;
	/*
	 * EDCIDSR samples CONTEXTIDR_EL1 (EDSCR.SC2 == 0), where Linux keeps the PID only
	 * when it runs at EL1 (under VHE its writes go to CONTEXTIDR_EL2)
	 */
	f->unit.cid2_block = !debug && is_kernel_in_hyp_mode();
	f->unit.cid_is_pid = IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR) &&
			     !(debug && is_kernel_in_hyp_mode());
	if (!debug) {
		f->unit.res = request_mem_region(pa, APMU_PCS_FRAME_SIZE, "apmu_pcs");
		if (!f->unit.res) {
			why = "busy: the region belongs to another driver";
			goto free;
		}
	}
	f->unit.base = ioremap(pa, APMU_PCS_FRAME_SIZE);
	if (!f->unit.base) {
		why = "cannot be mapped";
		goto free;
	}
	if (debug) {
		/* EDPRSR and EDDEVARCH (pcs_mmio_probe()) from the frame itself */
		f->unit.dbg = f->unit.base;
	} else if (dbg) {
		why = pcs_map_debug(&f->unit, dbg, param);
		if (why)
			goto free;
	}
	/* a frame found to be something else is reported where it is found */
	ret = apmu_pcs_unit_add(&f->unit);
	if (!ret) {
		list_add(&f->node, &apmu_pcs_mmio_list);
		return;
	}
	pcs_mmio_free(f);
	/* a debug frame without PC sampling (a FEAT_PCSRv8p2 core) is no fault */
	if (debug && ret == -ENODEV)
		pr_info("cpu%d debug frame %pa (%s): no FEAT_PCSRv8 PC sampling: not used\n",
			cpu, &pa, src);
	else
		pr_warn("cpu%d frame %pa (%s): %pe: refused\n", cpu, &pa, src, ERR_PTR(ret));
	return;
free:
	pcs_mmio_free(f);
refuse:
	pr_warn("cpu%d frame %pa (%s): %s: refused\n", cpu, &pa, src, why);
}

/*
 * A frame node to probe: false for a "disabled" one, whose frames the board says must not
 * be touched (reads abort). *@cpu: the logical CPU its cpu phandle names, or a -errno.
 */
static bool pcs_dt_node_cpu(struct device_node *np, int *cpu)
{
	struct device_node *cpun;

	if (!of_device_is_available(np)) {
		pr_debug("%pOF: disabled: not probed\n", np);
		return false;
	}
	cpun = of_parse_phandle(np, "cpu", 0);
	*cpu = cpun ? of_cpu_node_to_id(cpun) : -ENODEV;
	of_node_put(cpun);
	return true;
}

/*
 * A frame of the device tree: reg entry @i of @np, at least the 4 KiB that are mapped
 * (a smaller region describes less than the driver would claim and read).
 */
static const char *pcs_dt_frame(struct device_node *np, int i, struct resource *r)
{
	if (i < 0 || of_address_to_resource(np, i, r))
		return "missing in reg";
	if (resource_size(r) < APMU_PCS_FRAME_SIZE)
		return "smaller than 4 KiB";
	return NULL;
}

static void pcs_probe_dt(void)
{
	struct device_node *np;
	struct resource r, d;
	const char *why;
	int cpu, n;

	for_each_compatible_node(np, NULL, "arm,pc-sample-pmu") {
		if (!pcs_dt_node_cpu(np, &cpu))
			continue;
		for (n = 0; !of_address_to_resource(np, n, &r); n++)
			;
		/* two regions name their roles (the binding): never guess which is which */
		if (n > 1 && of_property_match_string(np, "reg-names", "pmu") < 0) {
			pr_warn("%pOF: two reg regions without reg-names: refused\n", np);
			continue;
		}
		why = pcs_dt_frame(np, n > 1 ? of_property_match_string(np, "reg-names", "pmu") : 0,
				   &r);
		if (why) {
			pr_warn("%pOF: PMU frame %s: refused\n", np, why);
			continue;
		}
		if (cpu < 0) {
			pr_warn("%pOF: cpu does not name a CPU: refused\n", np);
			continue;
		}
		d.start = 0;
		if (n > 1) {
			why = pcs_dt_frame(np, of_property_match_string(np, "reg-names", "debug"),
					   &d);
			if (why) {
				pr_warn("%pOF: debug frame %s: refused\n", np, why);
				continue;
			}
		}
		pcs_mmio_add(cpu, APMU_PCS_KIND_PMU, r.start, d.start, false, "device tree");
	}
}

/* pcs=CPU:PMU_FRAME[:DEBUG_FRAME],... */
static void pcs_probe_param(void)
{
	char *buf, *p, *ent, *q, *f_cpu, *f_pa, *f_dbg;
	unsigned int cpu;
	u64 pa, dbg;

	if (!pcs || !*pcs)
		return;
	buf = kstrdup(pcs, GFP_KERNEL);
	if (!buf)
		return;
	p = buf;
	while ((ent = strsep(&p, ","))) {
		q = ent;
		f_cpu = strsep(&q, ":");
		f_pa = strsep(&q, ":");
		f_dbg = strsep(&q, ":");
		dbg = 0;
		if (!f_pa || q || kstrtouint(f_cpu, 0, &cpu) || kstrtou64(f_pa, 0, &pa) ||
		    (f_dbg && kstrtou64(f_dbg, 0, &dbg))) {
			pr_warn("pcs=%s: an entry is not CPU:PMU_FRAME[:DEBUG_FRAME]: refused\n",
				pcs);
			continue;
		}
		pcs_mmio_add(cpu, APMU_PCS_KIND_PMU, pa, dbg, true, "pcs= parameter");
	}
	kfree(buf);
}

/*
 * The CoreSight CPU debug frames of the device tree ("arm,coresight-cpu-debug": one reg
 * region of at least 4 KiB, a cpu phandle), for the CPUs that have no PMU frame.
 */
static void pcs_probe_debug_dt(void)
{
	struct device_node *np;
	struct resource r;
	const char *why;
	int cpu;

	for_each_compatible_node(np, NULL, "arm,coresight-cpu-debug") {
		if (!pcs_dt_node_cpu(np, &cpu))
			continue;
		if (cpu < 0) {
			pr_warn("%pOF: cpu does not name a CPU: refused\n", np);
			continue;
		}
		why = pcs_dt_frame(np, 0, &r);
		if (why) {
			pr_warn("%pOF: debug frame %s: refused\n", np, why);
			continue;
		}
		if (pcs_mmio_has_cpu(cpu)) {
			pr_debug("%pOF: cpu%d samples from its PMU frame\n", np, cpu);
			continue;
		}
		pcs_mmio_add(cpu, APMU_PCS_KIND_DEBUG, r.start, 0, false, "coresight-cpu-debug");
	}
}

/**
 * apmu_pcs_mmio_probe() - add the frames of the device tree and of pcs=
 *
 * PMU frames first (device tree, then pcs=), then, with debug_dt, the debug frames of the
 * CPUs left.
 */
void apmu_pcs_mmio_probe(void)
{
	struct device_node *np;

	pcs_probe_dt();
	pcs_probe_param();
	if (debug_dt) {
		pcs_probe_debug_dt();
		return;
	}
	for_each_compatible_node(np, NULL, "arm,coresight-cpu-debug") {
		if (of_device_is_available(np)) {
			pr_info("arm,coresight-cpu-debug frames not probed: load with debug_dt=1 where the board keeps their debug clock and power domain on\n");
			of_node_put(np);
			break;
		}
	}
}

/**
 * apmu_pcs_mmio_remove() - remove and release every MMIO unit
 */
void apmu_pcs_mmio_remove(void)
{
	struct apmu_pcs_mmio *f, *tmp;

	list_for_each_entry_safe(f, tmp, &apmu_pcs_mmio_list, node) {
		list_del(&f->node);
		/* at unload: no event holds a unit (events pin apmu), so it is removed */
		apmu_pcs_unit_remove(&f->unit);
		pcs_mmio_free(f);
	}
}
