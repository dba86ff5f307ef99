// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the platform glue, as the in-tree arm_pmu_platform.c. One platform driver, "apmu",
 * binds the CPU PMU devices the in-tree drivers have left alone (boot with
 * initcall_blacklist=armv8_pmu_driver_init, or xscale_pmu_driver_init): its match tables
 * are the backends' (apmu_backends[]), and its probe takes the matched backend's instance
 * -> hardware discovery -> overflow IRQ -> hotplug and CPU PM -> perf_pmu_register().
 *
 * The overflow interrupt, from the device tree to each CPU: a PMU node has either one
 * per-CPU interrupt (a PPI, whose partition may name the CPUs of one microarchitecture)
 * or one SPI per CPU, each tied to its CPU by the "interrupt-affinity" phandle list (or,
 * without it, by position). An SPI is routed to its CPU when requested (probe fails if
 * it cannot be) and enabled only while that CPU is online. Without an interrupt apmu
 * counts only: sampling is refused, and each CPU's fold timer keeps 32-bit counters
 * exact (core.c, apmu_fold_timer()).
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "../apmu.h"
#include "../compat.h"

/* The backends built for this kernel (Kbuild); at most one matches a device */
static const struct apmu_backend *const apmu_backends[] = {
#if APMU_HAVE_PMUV3
	&apmu_pmuv3_backend,
#endif
#if APMU_HAVE_XSCALE
	&apmu_xscale_backend,
#endif
};

/*
 * Set only by the test-only apmu_knobs.ko (overflow_irq=0), which then probes the PMUs
 * again: each is driven as one whose node has no interrupt.
 */
VISIBLE_IF_KUNIT bool apmu_irq_ignore;
EXPORT_SYMBOL_IF_KUNIT(apmu_irq_ignore);

static int apmu_irq_parse_ppi(struct platform_device *pdev, struct apmu_pmu *pmu, int irq)
{
	/* On heterogeneous systems the PPI's affinity names this PMU's CPUs */
	if (apmu_compat_ppi_affinity(pdev, irq, &pmu->supported_cpus) ||
	    cpumask_empty(&pmu->supported_cpus))
		cpumask_copy(&pmu->supported_cpus, cpu_possible_mask);
	pmu->irq = irq;
	pmu->irq_percpu = true;
	pmu->has_irq = true;
	return 0;
}

/* The CPU SPI number @i belongs to: "interrupt-affinity", else its position. */
static int apmu_irq_cpu(struct device *dev, int i, bool has_affinity)
{
	struct device_node *cpu_dn;
	int cpu;

	if (!has_affinity)
		return i < nr_cpu_ids ? i : -EINVAL;
	cpu_dn = of_parse_phandle(dev->of_node, "interrupt-affinity", i);
	if (!cpu_dn)
		return -EINVAL;
	cpu = of_cpu_node_to_id(cpu_dn);
	of_node_put(cpu_dn);
	return cpu;
}

static int apmu_irq_parse_dt(struct platform_device *pdev, struct apmu_pmu *pmu)
{
	struct device *dev = &pdev->dev;
	bool has_affinity = of_property_present(dev->of_node, "interrupt-affinity");
	int n, i, irq, cpu;

	n = platform_irq_count(pdev);
	if (n <= 0) {
		cpumask_copy(&pmu->supported_cpus, cpu_possible_mask);
		return 0;
	}

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	if (n == 1 && irq_is_percpu_devid(irq))
		return apmu_irq_parse_ppi(pdev, pmu, irq);

	if (!has_affinity && n > 1)
		dev_warn(dev, "no interrupt-affinity property: SPI n taken as CPU n\n");
	for (i = 0; i < n; i++) {
		irq = platform_get_irq(pdev, i);
		if (irq < 0)
			return irq;
		if (irq_is_percpu_devid(irq)) {
			dev_err(dev, "interrupt %d mixes a PPI with SPIs\n", i);
			return -EINVAL;
		}
		cpu = apmu_irq_cpu(dev, i, has_affinity);
		if (cpu < 0 || !cpu_possible(cpu)) {
			dev_warn(dev, "interrupt %d: no possible CPU for it, ignored\n", i);
			continue;
		}
		if (per_cpu_ptr(pmu->hw, cpu)->irq) {
			dev_err(dev, "two interrupts for CPU%d\n", cpu);
			return -EINVAL;
		}
		per_cpu_ptr(pmu->hw, cpu)->irq = irq;
		cpumask_set_cpu(cpu, &pmu->supported_cpus);
	}
	if (cpumask_empty(&pmu->supported_cpus))
		return dev_err_probe(dev, -EINVAL, "no CPU has an overflow interrupt\n");
	pmu->has_irq = true;
	return 0;
}

/**
 * apmu_irq_parse() - find the overflow interrupt(s) and this PMU's CPUs
 * @pdev: the PMU node's device
 * @pmu: instance; @hw must be allocated (SPIs are recorded per CPU)
 *
 * With &apmu_irq_ignore the interrupts are still parsed, since they name the PMU's CPUs
 * (a PPI partition, interrupt-affinity), then forgotten: the PMU is driven exactly as
 * one whose node has none.
 *
 * Return: 0, or a negative errno for a description that cannot work.
 */
static int apmu_irq_parse(struct platform_device *pdev, struct apmu_pmu *pmu)
{
	unsigned int cpu;
	int ret;

	ret = apmu_irq_parse_dt(pdev, pmu);
	if (ret)
		return ret;
	if (pmu->has_irq && apmu_irq_ignore) {
		pmu->irq = 0;
		pmu->irq_percpu = false;
		pmu->has_irq = false;
		for_each_possible_cpu(cpu)
			per_cpu_ptr(pmu->hw, cpu)->irq = 0;
		dev_info(&pdev->dev, "overflow interrupt ignored (apmu_knobs overflow_irq=0)\n");
	}
	if (!pmu->has_irq)
		dev_info(&pdev->dev, "no overflow interrupt: counting only (sampling refused), 32-bit counters folded by a per-CPU timer\n");
	return 0;
}

static void apmu_irq_free(struct apmu_pmu *pmu);

/**
 * apmu_irq_request() - request the overflow interrupt(s), left disabled
 * @pmu: instance
 *
 * Each CPU's interrupt is enabled by apmu_irq_cpu_online(). The handler's dev_id is the
 * CPU's &struct apmu_cpu.
 *
 * Return: 0, or the errno of the failed request (nothing is left requested).
 */
static int apmu_irq_request(struct apmu_pmu *pmu)
{
	unsigned int cpu;
	int ret;

	if (!pmu->has_irq)
		return 0;
	if (pmu->irq_percpu) {
		ret = request_percpu_irq_affinity(pmu->irq, apmu_handle_irq, "apmu",
						  &pmu->supported_cpus, pmu->hw);
		if (ret)
			dev_err(pmu->dev, "cannot request PMU PPI %d: %pe\n", pmu->irq,
				ERR_PTR(ret));
		return ret;
	}
	for_each_cpu(cpu, &pmu->supported_cpus) {
		struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

		/*
		 * The SPI must reach its own CPU only: the handler reads that CPU's overflow
		 * flags and events. IRQF_PERCPU keeps the interrupt core from moving it to
		 * another CPU when its CPU goes offline; it is disabled then instead.
		 */
		ret = irq_force_affinity(c->irq, cpumask_of(cpu));
		if (ret && num_possible_cpus() > 1) {
			dev_err(pmu->dev, "cannot route PMU SPI %d to CPU%u: %pe\n", c->irq,
				cpu, ERR_PTR(ret));
			apmu_irq_free(pmu);
			return ret;
		}
		ret = request_irq(c->irq, apmu_handle_irq,
				  IRQF_PERCPU | IRQF_NOBALANCING | IRQF_NO_AUTOEN | IRQF_NO_THREAD,
				  "apmu", c);
		if (ret) {
			dev_err(pmu->dev, "cannot request PMU SPI %d for CPU%u: %pe\n", c->irq,
				cpu, ERR_PTR(ret));
			apmu_irq_free(pmu);
			return ret;
		}
		c->irq_requested = true;
	}
	return 0;
}

static void apmu_irq_free(struct apmu_pmu *pmu)
{
	unsigned int cpu;

	if (!pmu->has_irq)
		return;
	if (pmu->irq_percpu) {
		free_percpu_irq(pmu->irq, pmu->hw);
		return;
	}
	for_each_cpu(cpu, &pmu->supported_cpus) {
		struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

		if (c->irq_requested)
			free_irq(c->irq, c);
		c->irq_requested = false;
	}
}

/* On @cpu, which is coming online: its interrupt (routed to it at request) is enabled. */
void apmu_irq_cpu_online(struct apmu_pmu *pmu, unsigned int cpu)
{
	struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

	if (pmu->irq_percpu)
		enable_percpu_irq(pmu->irq, IRQ_TYPE_NONE);
	else if (c->irq)
		enable_irq(c->irq);
}

/* On @cpu, which is going offline: its interrupt is disabled before it moves away. */
void apmu_irq_cpu_offline(struct apmu_pmu *pmu, unsigned int cpu)
{
	struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

	if (pmu->irq_percpu)
		disable_percpu_irq(pmu->irq);
	else if (c->irq)
		disable_irq_nosync(c->irq);
}

struct apmu_probe_call {
	struct apmu_pmu *pmu;
	int ret;
};

static void apmu_probe_cpu(void *info)
{
	struct apmu_probe_call *call = info;

	call->ret = call->pmu->ops->probe(call->pmu);
}

static bool apmu_backend_has_id(const struct apmu_backend *b, const char *name)
{
	const struct platform_device_id *id;

	for (id = b->id_table; id && id->name[0]; id++)
		if (!strcmp(id->name, name))
			return true;
	return false;
}

/* The backend whose match table matched @pdev (of the driver's, which are theirs) */
static const struct apmu_backend *apmu_backend_of(struct platform_device *pdev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(apmu_backends); i++) {
		const struct apmu_backend *b = apmu_backends[i];

		if (b->of_match && of_match_device(b->of_match, &pdev->dev))
			return b;
		if (platform_get_device_id(pdev) && apmu_backend_has_id(b, pdev->name))
			return b;
	}
	return NULL;
}

static int apmu_probe(struct platform_device *pdev)
{
	const struct apmu_backend *backend = apmu_backend_of(pdev);
	struct device *dev = &pdev->dev;
	struct apmu_probe_call call;
	struct apmu_pmu *pmu;
	int ret;

	if (!backend)
		return -ENODEV;
	pmu = backend->alloc(dev);
	if (IS_ERR(pmu))
		return PTR_ERR(pmu);
	pmu->dev = dev;
	pmu->run_irq_work = backend->run_irq_work;
	platform_set_drvdata(pdev, pmu);

	ret = apmu_pmu_alloc_cpus(pmu);
	if (ret)
		return ret;

	/* The DT names this PMU's CPUs through its interrupts */
	ret = apmu_irq_parse(pdev, pmu);
	if (ret)
		goto free_percpu;

	/* Hardware first: discovery runs on one of this PMU's CPUs */
	call.pmu = pmu;
	ret = smp_call_function_any(&pmu->supported_cpus, apmu_probe_cpu, &call, 1);
	if (ret) {
		dev_err(dev, "no online CPU to probe the PMU on\n");
		goto free_percpu;
	}
	ret = call.ret;
	if (ret)
		goto free_percpu;

	ret = apmu_irq_request(pmu);
	if (ret)
		goto free_percpu;

	ret = apmu_hotplug_add(pmu);
	if (ret)
		goto free_irq;

	apmu_pmu_init(pmu, THIS_MODULE);
	ret = perf_pmu_register(&pmu->pmu, pmu->name, -1);
	if (ret)
		goto remove_hotplug;

	if (backend->sysctl_register)
		backend->sysctl_register();
	dev_info(dev, "%s: %s, CPUs %*pbl\n", pmu->name, pmu->info,
		 cpumask_pr_args(&pmu->supported_cpus));
	return 0;

remove_hotplug:
	apmu_hotplug_remove(pmu);
free_irq:
	apmu_irq_free(pmu);
free_percpu:
	free_percpu(pmu->hw);
	return ret;
}

static void apmu_remove(struct platform_device *pdev)
{
	struct apmu_pmu *pmu = platform_get_drvdata(pdev);

	perf_pmu_unregister(&pmu->pmu);
	/* Runs the offline callback on every CPU: counters and interrupts off, flags clear */
	apmu_hotplug_remove(pmu);
	apmu_irq_free(pmu);
	free_percpu(pmu->hw);
}

static struct platform_driver apmu_driver = {
	.driver = {
		.name = "apmu",
		.suppress_bind_attrs = true,
	},
	.probe = apmu_probe,
	.APMU_PLATFORM_REMOVE = apmu_remove,
};

/*
 * The driver's match tables are the backends': each kind (DT compatibles, platform
 * device names) from the one backend that has it, with its own .data (what the
 * backend's alloc() reads back) and its own MODULE_DEVICE_TABLE() for module
 * autoloading. PMUv3 has the compatibles, XScale the board files' device name; two
 * backends with tables of one kind would need them joined, which none needs.
 */
static int apmu_set_tables(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(apmu_backends); i++) {
		const struct apmu_backend *b = apmu_backends[i];

		if (WARN_ON((b->of_match && apmu_driver.driver.of_match_table) ||
			    (b->id_table && apmu_driver.id_table)))
			return -EINVAL;
		if (b->of_match)
			apmu_driver.driver.of_match_table = b->of_match;
		if (b->id_table)
			apmu_driver.id_table = b->id_table;
	}
	return 0;
}

/* Is @dev bound to another driver than apmu? Then say so once, with the way out. */
static void apmu_report_taken(struct device *dev, const char *what,
			      const struct apmu_backend *b)
{
	if (dev->driver && dev->driver != &apmu_driver.driver)
		pr_info("%s is driven by %s; core PMU not registered (boot with initcall_blacklist=%s to use apmu)\n",
			what, dev->driver->name, b->intree_initcall);
}

/*
 * If another driver (the in-tree armv8_pmuv3 or armv5_xscale) owns a PMU device, apmu
 * must not touch that PMU's registers: each backend's devices, by DT node or by name.
 */
static void apmu_report_taken_nodes(const struct apmu_backend *b)
{
	struct device_node *np;
	char what[64];

	for_each_matching_node(np, b->of_match) {
		struct platform_device *pdev = of_find_device_by_node(np);

		if (!pdev)
			continue;
		snprintf(what, sizeof(what), "%pOF", np);
		apmu_report_taken(&pdev->dev, what, b);
		put_device(&pdev->dev);
	}
}

static void apmu_report_taken_names(const struct apmu_backend *b)
{
	const struct platform_device_id *id;
	struct device *dev;

	for (id = b->id_table; id->name[0]; id++) {
		dev = bus_find_device_by_name(&platform_bus_type, NULL, id->name);
		if (!dev) {
			pr_debug("no %s platform device (%s boards register it)\n", id->name,
				 b->name);
			continue;
		}
		apmu_report_taken(dev, dev_name(dev), b);
		put_device(dev);
	}
}

/**
 * apmu_platform_init() - register the platform driver, which binds the PMU devices
 *
 * Return: 0, or the errno of the registration.
 */
int apmu_platform_init(void)
{
	unsigned int i;
	int ret;

	ret = apmu_set_tables();
	if (ret)
		return ret;
	ret = platform_driver_register(&apmu_driver);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(apmu_backends); i++) {
		if (apmu_backends[i]->of_match)
			apmu_report_taken_nodes(apmu_backends[i]);
		if (apmu_backends[i]->id_table)
			apmu_report_taken_names(apmu_backends[i]);
	}
	return 0;
}

/* Every PMU unbound and unregistered, then the backends' sysctls */
void apmu_platform_exit(void)
{
	unsigned int i;

	platform_driver_unregister(&apmu_driver);
	for (i = 0; i < ARRAY_SIZE(apmu_backends); i++)
		if (apmu_backends[i]->sysctl_unregister)
			apmu_backends[i]->sysctl_unregister();
}
