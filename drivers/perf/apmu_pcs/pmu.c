// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_pcs: a perf PMU that samples a CPU's PC without interrupting it (apmu.rst, "The
 * apmu_pcs perf PMU"). An event is bound to CPU N; its ring buffer is written on N only.
 *
 *  - the reader, another active (housekeeping) CPU: its hard-IRQ hrtimer reads N's
 *    PMPCSR over the external frame each interval into the event's single-producer ring
 *    (pcs_produce()); started and moved by an IPI to the reader (pcs_kick()), never to N.
 *  - CPU N, IRQs off: delivers the ring as perf samples (pcs_deliver()) from a pinned
 *    deferrable timer at its tick (pcs_flush()), a read of the event and del().
 *  - perf core: event_init, add/del/start/stop/read on N; the hotplug callbacks move
 *    the readers off a CPU going down.
 *
 * The ring is ordered by @head (release by the reader, acquire by N) and @tail (release
 * by N, acquire by the reader).
 */
#define pr_fmt(fmt) "apmu_pcs: " fmt

#include <linux/atomic.h>
#include <linux/cleanup.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <asm/ptrace.h>
#include <asm/virt.h>
#include <kunit/visibility.h>

#include "../apmu/compat.h"
#include "../apmu/sample.h"
#include "pcs.h"
#include "internal.h"

#define APMU_PCS_MIN_PERIOD_NS	10000ULL
#define APMU_PCS_RING		4096	/* samples buffered per event, a power of 2 */
/* hw.interrupts of an event throttled until its next tick: perf core's MAX_INTERRUPTS */
#define APMU_PCS_THROTTLED	(~0ULL)
/* The reader's interval is at least this many times its last callback's cost */
#define APMU_PCS_COST_SHARE	4

/**
 * struct apmu_pcs_rec - a sample read on the reader, waiting for CPU N
 * @time: perf clock at the read
 * @period: the period it stands for (ns)
 * @pc: the sampled PC
 * @pid: process the context ID names, or -1
 * @tid: thread the context ID names, or -1
 * @el: Exception level
 */
struct apmu_pcs_rec {
	u64 time;
	u64 period;
	u64 pc;
	s32 pid;
	s32 tid;
	u8 el;
};

/**
 * struct apmu_pcs_event - an apmu_pcs event's state
 * @unit: the sampled CPU's unit
 * @event: the perf event
 * @timer: the sampling timer, on the reader CPU
 * @kick: starts @timer on the reader (an IPI to the reader, never to the target)
 * @kicks: @kick IPIs sent and not yet finished; the event is not freed while one may
 *	run (an async CSD is unlocked before its function runs)
 * @reader: the CPU @timer runs on; written under pcs_active_lock (add(), hotplug),
 *	READ_ONCE elsewhere; @timer and @kick elsewhere send @kick on to it
 * @period: the sampling period in ns, from the attribute (not hw.sample_period):
 *	written on CPU N, read once per callback on the reader (aligned u64, ONCE)
 * @delivering: pcs_deliver() is running (perf may call stop() from inside it)
 * @flush: delivers the ring on the target CPU at each of its ticks (deferrable, pinned)
 * @active: between add() and del(): @timer and @flush run (written on the target CPU)
 * @stopped: between stop() and start(): nothing is produced
 * @parked: the reader's timer stopped itself while the event was stopped; taken back
 *	with xchg() by exactly one of pcs_park() and pcs_unpark(), which restarts it
 * @lost: samples dropped on the reader (ring full), for PERF_RECORD_LOST_SAMPLES
 * @min_ns: the shortest interval perf's sample limit allows, learnt at a throttle (0
 *	again at add() and at a period change)
 * @cost_ns: the reader's last callback's duration (ONCE: the reader may change)
 * @node: in pcs_active between add() and del()
 * @head: ring entries produced (reader)
 * @tail: ring entries consumed (target CPU)
 * @ring: the samples
 */
struct apmu_pcs_event {
	struct apmu_pcs_unit *unit;
	struct perf_event *event;
	struct hrtimer timer;
	call_single_data_t kick;
	atomic_t kicks;
	int reader;
	u64 period;
	bool delivering;
	struct timer_list flush;
	bool active;
	bool stopped;
	int parked;
	atomic_long_t lost;
	u64 min_ns;
	u64 cost_ns;
	struct list_head node;
	unsigned int head;
	unsigned int tail;
	struct apmu_pcs_rec ring[APMU_PCS_RING];
};

static struct pmu apmu_pcs_pmu;

/* The events between add() and del(): readers are chosen and moved over them */
static DEFINE_RAW_SPINLOCK(pcs_active_lock);
static LIST_HEAD(pcs_active);

/**
 * apmu_pcs_reader_cpu() - is there a CPU to sample @target from? Any other active CPU
 * @target: the sampled CPU
 *
 * Return: a CPU number, or >= nr_cpu_ids when @target is the only active CPU.
 */
int apmu_pcs_reader_cpu(int target)
{
	/* active, not just online: a CPU being taken down is online until late */
	return cpumask_any_but(cpu_active_mask, target);
}

/*
 * pcs_choose_reader() - the CPU to sample @self's CPU from, pcs_active_lock held
 * @self: the event (on pcs_active or not; its own @reader is not counted)
 * @not: a CPU that must not read (one going down), or -1
 *
 * An active housekeeping CPU for timers and scheduler domains (nohz_full=, isolcpus=),
 * never the sampled CPU; preferably one no event samples, then the least loaded. Else
 * any other active CPU: sampling from an isolated CPU beats not sampling.
 * Return: a CPU, or >= nr_cpu_ids when no other CPU is active.
 */
static int pcs_choose_reader(struct apmu_pcs_event *self, int not)
{
	const struct cpumask *hk = housekeeping_cpumask(HK_TYPE_TIMER);
	const struct cpumask *hk_domain = housekeeping_cpumask(HK_TYPE_DOMAIN);
	int cpu, target = self->unit->cpu, best = nr_cpu_ids, pass;
	unsigned int score, best_score = UINT_MAX;
	struct apmu_pcs_event *pe;

	lockdep_assert_held(&pcs_active_lock);
	for (pass = 0; pass < 2 && best >= nr_cpu_ids; pass++) {
		for_each_cpu_and(cpu, cpu_active_mask, pass ? cpu_active_mask : hk) {
			if (cpu == target || cpu == not)
				continue;
			if (!pass && !cpumask_test_cpu(cpu, hk_domain))
				continue;
			score = 0;
			list_for_each_entry(pe, &pcs_active, node) {
				if (pe == self)
					continue;
				if (pe->unit->cpu == cpu)
					score += 1U << 16;	/* sampled: its PMU is busy */
				if (READ_ONCE(pe->reader) == cpu)
					score++;
			}
			if (score < best_score) {
				best = cpu;
				best_score = score;
			}
		}
	}
	return best;
}

/* The period the attribute asks for, in nanoseconds: -c N or 1 s / -F N */
static u64 pcs_attr_period(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 period;

	period = attr->freq ? div64_u64(NSEC_PER_SEC, attr->sample_freq) : attr->sample_period;
	return max(period, APMU_PCS_MIN_PERIOD_NS);
}

static void pcs_event_destroy(struct perf_event *event)
{
	struct apmu_pcs_event *pe = event->pmu_private;

	WRITE_ONCE(pe->active, false);
	hrtimer_cancel(&pe->timer);
	/*
	 * A kick in flight must not start a freed event's timer: wait for pcs_kick() (no new
	 * kick can be sent: off pcs_active, timer cancelled), then cancel what it started.
	 */
	atomic_cond_read_acquire(&pe->kicks, !VAL);
	hrtimer_cancel(&pe->timer);
	/* del() left it idle; a callback still running on the target sees !active */
	timer_delete_sync(&pe->flush);
	apmu_pcs_unit_put(pe->unit);
	kvfree(pe);
}

/*
 * What perf would fill at delivery on CPU N from that moment's context, not the sampled
 * one (registers, stack, cgroup, page sizes, a group read), or a PC sample lacks.
 */
#define APMU_PCS_NO_SAMPLE_TYPES (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
				  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | \
				  PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_ADDR | \
				  PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_SRC | \
				  PERF_SAMPLE_CGROUP | PERF_SAMPLE_CODE_PAGE_SIZE | \
				  PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_WEIGHT | \
				  PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_RAW | \
				  PERF_SAMPLE_READ | PERF_SAMPLE_TRANSACTION | \
				  PERF_SAMPLE_AUX)

static enum hrtimer_restart pcs_hrtimer(struct hrtimer *timer);
static void pcs_kick(void *info);
static void pcs_flush(struct timer_list *t);

/*
 * smp_call_function_single_async() must not send one CSD concurrently, and kicks come
 * from paths holding nothing in common (hotplug and add() under pcs_active_lock, a
 * period change, a stale kick, a timer off its reader): this lock, innermost.
 */
static DEFINE_RAW_SPINLOCK(pcs_kick_lock);

/* Start @pe's timer on @cpu, counting the kick until pcs_kick() is done with @pe */
static void pcs_send_kick(struct apmu_pcs_event *pe, int cpu)
{
	atomic_inc(&pe->kicks);
	guard(raw_spinlock_irqsave)(&pcs_kick_lock);
	/* -EBUSY: a kick is pending, and counted; -ENXIO: @cpu is gone */
	if (smp_call_function_single_async(cpu, &pe->kick))
		atomic_dec(&pe->kicks);
}

/* event_init's attribute refusals: 0, or the errno, each with a pr_debug */
static int pcs_event_refused(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	/* perf core refuses it without a task itself (EINVAL); say why here too */
	if (attr->sigtrap) {
		pr_debug("sigtrap refused: samples are delivered late, not at the sampled PC\n");
		return -EOPNOTSUPP;
	}
	/* inherit: per-task only; perf record sets it for -C too */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK)) {
		pr_debug("per-task events refused: the frame samples whatever the CPU runs\n");
		return -EOPNOTSUPP;
	}
	if (!is_sampling_event(event)) {
		pr_debug("counting events refused: apmu_pcs only samples\n");
		return -EOPNOTSUPP;
	}
	/* exclude_hv: no hypervisor sample is ever delivered (apmu_pcs_classify()) */
	if (attr->exclude_user || attr->exclude_kernel || attr->exclude_idle ||
	    attr->exclude_host) {
		pr_debug("exclude_user/kernel/idle/host refused: PMPCSR cannot filter\n");
		return -EOPNOTSUPP;
	}
	if (attr->sample_type & APMU_PCS_NO_SAMPLE_TYPES) {
		pr_debug("sample_type %#llx refused: only IP, TID, TIME, CPU, PERIOD, ID, STREAM_ID and IDENTIFIER\n",
			 attr->sample_type);
		return -EOPNOTSUPP;
	}
	if (attr->config || attr->config1 || attr->config2 || apmu_compat_config3(attr)) {
		pr_debug("config, config1, config2 and config3 must be 0\n");
		return -EINVAL;
	}
	if (event->group_leader != event) {
		pr_debug("groups refused\n");
		return -EOPNOTSUPP;
	}
	if (!apmu_can_sample()) {
		pr_debug("perf_event_overflow() unavailable: sampling refused\n");
		return -EOPNOTSUPP;
	}
	if (apmu_pcs_reader_cpu(event->cpu) >= nr_cpu_ids) {
		pr_debug("no other online CPU to sample cpu%d from\n", event->cpu);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int pcs_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct apmu_pcs_event *pe;
	struct apmu_pcs_unit *u;
	u64 period;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	ret = pcs_event_refused(event);
	if (ret)
		return ret;
	u = apmu_pcs_unit_get(event->cpu);
	if (!u) {
		pr_debug("cpu%d has no PC-sampling frame\n", event->cpu);
		return -ENODEV;
	}
	/*
	 * Refused here, not by add(): a failed add() leaves the event silently inactive and
	 * makes perf rotate CPU N's context every jiffy, on the CPU apmu_pcs leaves alone.
	 */
	if (apmu_pcs_events_refused(u)) {
		apmu_pcs_unit_put(u);
		return -EBUSY;
	}
	/* the ring is the opener's memory: charged to its memory cgroup */
	pe = kvzalloc(sizeof(*pe), GFP_KERNEL_ACCOUNT);
	if (!pe) {
		apmu_pcs_unit_put(u);
		return -ENOMEM;
	}
	pe->unit = u;
	pe->event = event;
	pe->stopped = true;
	INIT_LIST_HEAD(&pe->node);
	INIT_CSD(&pe->kick, pcs_kick, pe);
	hrtimer_setup(&pe->timer, pcs_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	timer_setup(&pe->flush, pcs_flush, TIMER_PINNED | TIMER_DEFERRABLE);
	event->pmu_private = pe;
	event->destroy = pcs_event_destroy;

	/*
	 * A frequency stays one (perf restarts the event at each tick of N, when the ring is
	 * delivered); the timer's period comes from the attribute. period_left stays 0, so
	 * perf's period adjustment never restarts the event inside a delivery.
	 */
	period = pcs_attr_period(event);
	pe->period = period;
	hwc->sample_period = pe->period;
	hwc->last_period = pe->period;
	local64_set(&hwc->period_left, 0);
	return 0;
}

/*
 * The task a context ID (task_pid_nr()) names, numbered in the opener's PID namespace as
 * perf does; -1 for a task it cannot see and for a guest's sample under nVHE (@guest).
 * Return: whether that task is a vCPU thread in guest context (PF_VCPU).
 */
static bool pcs_sample_tid(const struct apmu_pcs_unit *u, const struct apmu_pcs_sample *s,
			   bool guest, struct perf_event *event, struct apmu_pcs_rec *r)
{
	u32 cid = s->has_cid2 ? s->cid2 : s->cid1;
	struct task_struct *t;
	bool vcpu = false;
	pid_t pid, tid;

	r->pid = -1;
	r->tid = -1;
	if (!u->cid_is_pid || guest)
		return false;
	if (!cid) {
		r->pid = 0;
		r->tid = 0;
		return false;
	}
	rcu_read_lock();
	/* found in the initial namespace; 0 in the event's: not visible from it */
	t = pid_task(find_pid_ns(cid, &init_pid_ns), PIDTYPE_PID);
	if (t) {
		vcpu = READ_ONCE(t->flags) & PF_VCPU;
		pid = task_tgid_nr_ns(t, event->ns);
		tid = task_pid_nr_ns(t, event->ns);
		if (pid && tid) {
			r->pid = pid;
			r->tid = tid;
		}
	}
	rcu_read_unlock();
	return vcpu;
}

/**
 * apmu_pcs_classify() - whose PC is a sample, and may perf users see it?
 * @s: a valid sample
 * @host: APMU_PCS_HOST_VHE when the kernel runs at EL2 (is_kernel_in_hyp_mode()),
 *	APMU_PCS_HOST_PKVM under protected KVM
 * @vcpu: the task the sample's CONTEXTIDR_EL2 names is a vCPU thread in guest context
 *	(VHE only; false when unknown)
 *
 * PMPCSR sees every Security state and EL when non-invasive debug is allowed; Linux's
 * own PMU does not (MDCR_EL3.SPME, RME; EL2 only where the kernel runs). So: only
 * Non-secure samples, never EL3, EL2 only under VHE and not under protected KVM.
 * A guest's sample: under nVHE, VMID != 0 (KVM's host runs with VMID 0); under VHE,
 * EL1, and EL0 of a vCPU thread in guest context (PF_VCPU stands in for HCR_EL2.TGE).
 *
 * Return: APMU_PCS_DROP, APMU_PCS_HOST or APMU_PCS_GUEST.
 */
VISIBLE_IF_KUNIT enum apmu_pcs_verdict apmu_pcs_classify(const struct apmu_pcs_sample *s,
							 unsigned int host, bool vcpu)
{
	bool vhe = host & APMU_PCS_HOST_VHE;

	if (s->sec != APMU_PCS_NONSECURE || s->el == 3)
		return APMU_PCS_DROP;
	if (s->el == 2)
		return vhe && !(host & APMU_PCS_HOST_PKVM) ? APMU_PCS_HOST : APMU_PCS_DROP;
	if (vhe)
		return s->el == 1 || vcpu ? APMU_PCS_GUEST : APMU_PCS_HOST;
	return !s->has_cid2 && s->vmid ? APMU_PCS_GUEST : APMU_PCS_HOST;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_classify);

/* The host apmu_pcs_classify() is asked about: this kernel's */
static unsigned int pcs_host(void)
{
	return (is_kernel_in_hyp_mode() ? APMU_PCS_HOST_VHE : 0) |
	       (is_protected_kvm_enabled() ? APMU_PCS_HOST_PKVM : 0);
}

/*
 * On the reader: one read of the target's PMPCSR into the ring, unless classified away,
 * a guest's under exclude_guest, or a snapshot (SS, not a sample of now).
 */
static void pcs_produce(struct apmu_pcs_event *pe, u64 period)
{
	struct perf_event *event = pe->event;
	struct apmu_pcs_unit *u = pe->unit;
	unsigned int head = pe->head, host = pcs_host();
	enum apmu_pcs_verdict v;
	struct apmu_pcs_sample s;
	struct apmu_pcs_rec *r;
	u64 t0 = local_clock();
	bool vcpu;

	local64_add(period, &event->count);
	/*
	 * Racy read, on purpose: SS cannot be set while the event is added
	 * (apmu_pcs_set_snapshot()); set before, it stays until the event goes.
	 */
	if (data_race(u->ctl) & APMU_PMPCSCTL_SS)
		return;
	if (apmu_pcs_read_sample(u, &s) || !s.valid)
		return;
	v = apmu_pcs_classify(&s, host, false);
	if (v == APMU_PCS_DROP || (v == APMU_PCS_GUEST && event->attr.exclude_guest))
		return;
	/* acquire: pairs with pcs_deliver()'s release of @tail; the slot is free */
	if (head - smp_load_acquire(&pe->tail) >= APMU_PCS_RING) {
		/* full: CPU N has not delivered for a while; it reports the loss */
		atomic_long_inc(&pe->lost);
		return;
	}
	r = &pe->ring[head % APMU_PCS_RING];
	r->time = event->clock();
	r->period = period;
	r->pc = s.pc;
	r->el = s.el;
	vcpu = pcs_sample_tid(u, &s, v == APMU_PCS_GUEST && !s.has_cid2, event, r);
	/* under VHE, EL0 of a vCPU thread in guest context is the guest's */
	if (vcpu && event->attr.exclude_guest &&
	    apmu_pcs_classify(&s, host, true) == APMU_PCS_GUEST)
		return;
	/* release: the entry is written before pcs_deliver() sees it */
	smp_store_release(&pe->head, head + 1);
	/* this timer is the sampling interrupt: its cost counts against perf's limit */
	apmu_sample_took(local_clock() - t0);
}

/*
 * The event is stopped: the reader's timer stops too (a throttled event costs no
 * sampling work); pcs_unpark() or this takes @parked back and restarts it.
 * Return: keep the timer going.
 */
static bool pcs_park(struct apmu_pcs_event *pe)
{
	WRITE_ONCE(pe->parked, 1);
	/* parked before stopped is read again; pairs with pcs_unpark() */
	smp_mb();
	return !READ_ONCE(pe->stopped) && xchg(&pe->parked, 0);
}

/* The period, never shorter than @min_ns nor APMU_PCS_COST_SHARE times @cost_ns */
static u64 pcs_interval(struct apmu_pcs_event *pe)
{
	return max3(READ_ONCE(pe->period), READ_ONCE(pe->min_ns),
		    APMU_PCS_COST_SHARE * READ_ONCE(pe->cost_ns));
}

/*
 * The reader's timer, hard IRQ: one sample of CPU N per expiry, at pcs_interval();
 * hrtimer_forward_now() skips expiries already past.
 */
static enum hrtimer_restart pcs_hrtimer(struct hrtimer *timer)
{
	struct apmu_pcs_event *pe = container_of(timer, struct apmu_pcs_event, timer);
	u64 period, t0 = local_clock(), cost;
	int reader;

	if (!READ_ONCE(pe->active))
		return HRTIMER_NORESTART;
	/*
	 * Not on the reader (a kick racing with this callback, a hotplug migration)? Never
	 * sample from here, least of all from CPU N: send the timer to the reader.
	 */
	reader = READ_ONCE(pe->reader);
	if (smp_processor_id() != reader) {
		if (reader < nr_cpu_ids)
			pcs_send_kick(pe, reader);
		return HRTIMER_NORESTART;
	}
	if (READ_ONCE(pe->stopped) && !pcs_park(pe))
		return HRTIMER_NORESTART;
	period = pcs_interval(pe);
	if (!READ_ONCE(pe->stopped))
		pcs_produce(pe, period);
	/* this callback's cost bounds the interval to the next one as well */
	cost = local_clock() - t0;
	WRITE_ONCE(pe->cost_ns, cost);
	hrtimer_forward_now(timer, ns_to_ktime(max(period, APMU_PCS_COST_SHARE * cost)));
	return HRTIMER_RESTART;
}

/*
 * On the reader (IPI): start the sampling timer. A stale kick (the reader changed) is
 * sent on to the current reader; a reader going down starts nothing (the offline
 * callback gives its events another reader).
 */
static void pcs_kick(void *info)
{
	struct apmu_pcs_event *pe = info;
	int cpu = smp_processor_id(), reader = READ_ONCE(pe->reader);

	if (READ_ONCE(pe->active)) {
		u64 ns = pcs_interval(pe);

		if (cpu == reader && cpu_active(cpu) && cpu != pe->unit->cpu)
			hrtimer_start(&pe->timer, ns_to_ktime(ns), HRTIMER_MODE_REL_PINNED_HARD);
		else if (reader != cpu && reader < nr_cpu_ids)
			pcs_send_kick(pe, reader);
	}
	/* release: the last access to @pe; pcs_event_destroy() may free it now */
	atomic_dec_return_release(&pe->kicks);
}

static const u64 pcs_el_mode[] = {
	PSR_MODE_EL0t, PSR_MODE_EL1h, PSR_MODE_EL2h, PSR_MODE_EL3h,
};

/*
 * On CPU N: hand the ring's samples to perf. When perf throttles the event or it
 * reaches its IOC_REFRESH limit, the rest of the batch is dropped, as a throttled
 * counter takes no more samples: kept, it would be a growing backlog of stale samples.
 */
static void pcs_deliver(struct apmu_pcs_event *pe)
{
	struct perf_event *event = pe->event;
	unsigned int tail = pe->tail;
	/* acquire: pairs with pcs_produce()'s release; the entries up to @head are written */
	unsigned int head = smp_load_acquire(&pe->head);
	struct perf_sample_data data;
	struct apmu_pcs_rec *r;
	struct pt_regs regs;
	u64 t0 = local_clock(), seen;
	unsigned int n, lost = 0;

	if (pe->delivering || event->hw.interrupts == APMU_PCS_THROTTLED)
		return;
	pe->delivering = true;
	for (; tail != head; tail++) {
		r = &pe->ring[tail % APMU_PCS_RING];
		perf_sample_data_init(&data, 0, r->period);
		data.time = r->time;
		data.cpu_entry.cpu = pe->unit->cpu;
		data.cpu_entry.reserved = 0;
		data.tid_entry.pid = r->pid;
		data.tid_entry.tid = r->tid;
		/*
		 * IP is the sampled PC, set here: perf would otherwise take it from
		 * perf_instruction_pointer(), which gives the guest's PC while a vCPU
		 * is loaded on this CPU.
		 */
		data.ip = r->pc;
		data.sample_flags |= PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				     PERF_SAMPLE_TID;
		memset(&regs, 0, sizeof(regs));
		regs.pc = r->pc;
		regs.pstate = pcs_el_mode[r->el & 3];
		/* samples perf took in this tick so far (its per-tick throttle count) */
		seen = event->hw.interrupts;
		if (apmu_event_overflow(event, &data, &regs)) {
			/*
			 * Throttled (not the IOC_REFRESH limit): perf took @seen samples this
			 * tick. The reader slows to that rate, so its work follows perf's limit,
			 * until the next add() or period change.
			 */
			if (event->hw.interrupts == APMU_PCS_THROTTLED && seen &&
			    seen != APMU_PCS_THROTTLED)
				WRITE_ONCE(pe->min_ns, max(pe->min_ns, div64_u64(TICK_NSEC, seen)));
			lost = head - tail - 1;
			tail = head;
			WRITE_ONCE(pe->stopped, true);
			break;
		}
	}
	n = tail - pe->tail - lost;
	/* release: the entries are read before pcs_produce() reuses them */
	smp_store_release(&pe->tail, tail);
	/* the rest of a throttled batch, and what the reader found no room for */
	apmu_lost_samples(event, lost + atomic_long_xchg(&pe->lost, 0));
	pe->delivering = false;
	/* perf's CPU-time limit expects one sample's cost, not a batch's: the average */
	if (n)
		apmu_sample_took(div_u64(local_clock() - t0, n));
}

/*
 * On CPU N, timer softirq at its tick: deliver what the reader sampled, keeping each
 * batch under perf's per-tick limit. Deferrable: an idle CPU is not woken. IRQs off, as
 * on every path into pcs_deliver(): perf's IPIs cannot run inside a delivery, and del()
 * cannot clear @active between the test and the re-arm.
 */
static void pcs_flush(struct timer_list *t)
{
	struct apmu_pcs_event *pe = timer_container_of(pe, t, flush);
	unsigned long flags;

	local_irq_save(flags);
	if (READ_ONCE(pe->active)) {
		if (!READ_ONCE(pe->stopped))
			pcs_deliver(pe);
		mod_timer(&pe->flush, jiffies + 1);
	}
	local_irq_restore(flags);
}

/*
 * On CPU N: the period from the attribute again (PERF_EVENT_IOC_PERIOD) and, when it
 * changed while the reader's timer runs, a kick to re-arm it.
 */
static void pcs_reload_period(struct apmu_pcs_event *pe, bool rearm)
{
	u64 period = pcs_attr_period(pe->event);
	int reader;

	if (period == pe->period)
		return;
	WRITE_ONCE(pe->period, period);
	WRITE_ONCE(pe->min_ns, 0);
	if (!pe->event->attr.freq) {
		pe->event->hw.sample_period = period;
		pe->event->hw.last_period = period;
	}
	reader = READ_ONCE(pe->reader);
	if (rearm && READ_ONCE(pe->active) && reader < nr_cpu_ids)
		pcs_send_kick(pe, reader);
}

static void pcs_start(struct perf_event *event, int flags)
{
	struct apmu_pcs_event *pe = event->pmu_private;

	if (flags & PERF_EF_RELOAD)
		pcs_reload_period(pe, true);
	event->hw.state = 0;
	WRITE_ONCE(pe->stopped, false);
	/* stopped cleared before parked is read; pairs with pcs_park() */
	smp_mb();
	/* the reader's timer parked itself while the event was stopped: send it going */
	if (READ_ONCE(pe->parked) && xchg(&pe->parked, 0)) {
		int reader = READ_ONCE(pe->reader);

		if (READ_ONCE(pe->active) && reader < nr_cpu_ids)
			pcs_send_kick(pe, reader);
	}
}

static void pcs_stop(struct perf_event *event, int flags)
{
	struct apmu_pcs_event *pe = event->pmu_private;

	if (flags & PERF_EF_UPDATE)
		pcs_deliver(pe);
	WRITE_ONCE(pe->stopped, true);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* On CPU N: the event goes on. Sampling starts on the reader. */
static int pcs_add(struct perf_event *event, int flags)
{
	struct apmu_pcs_event *pe = event->pmu_private;
	struct apmu_pcs_unit *u = pe->unit;
	int reader;

	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* EN counted across events; never refused here (see apmu_pcs_events_get()) */
	apmu_pcs_events_get(u);
	/* PERF_EVENT_IOC_PERIOD while the event was off changed only the attribute */
	pcs_reload_period(pe, false);
	/* the kick below starts the timer: nothing is parked, perf's limit learnt anew */
	WRITE_ONCE(pe->parked, 0);
	WRITE_ONCE(pe->min_ns, 0);
	if (flags & PERF_EF_START)
		pcs_start(event, flags);
	scoped_guard(raw_spinlock, &pcs_active_lock) {
		reader = pcs_choose_reader(pe, -1);
		list_add(&pe->node, &pcs_active);
		WRITE_ONCE(pe->reader, reader);
		WRITE_ONCE(pe->active, true);
		if (reader < nr_cpu_ids)
			pcs_send_kick(pe, reader);
	}
	/* on CPU N: TIMER_PINNED queues it here */
	mod_timer(&pe->flush, jiffies + 1);
	return 0;
}

static void pcs_del(struct perf_event *event, int flags)
{
	struct apmu_pcs_event *pe = event->pmu_private;
	unsigned int head, lost;

	scoped_guard(raw_spinlock, &pcs_active_lock) {
		list_del_init(&pe->node);
		WRITE_ONCE(pe->active, false);
	}
	/* If the callback is running on the reader, it sees !active and stops */
	hrtimer_try_to_cancel(&pe->timer);
	/*
	 * On CPU N with IRQs off: pcs_flush() is not between its test of @active and its
	 * re-arm, so it is either pending here or sees !active when it runs.
	 */
	timer_delete(&pe->flush);
	pcs_stop(event, PERF_EF_UPDATE);
	/* what a throttled event sampled after its restart would be late: dropped */
	head = smp_load_acquire(&pe->head);
	lost = head - pe->tail;
	/* release: pairs with pcs_produce()'s acquire of @tail, as in pcs_deliver() */
	smp_store_release(&pe->tail, head);
	apmu_lost_samples(event, lost + atomic_long_xchg(&pe->lost, 0));
	apmu_pcs_events_put(pe->unit);
}

/* On CPU N (a read of the event): deliver what the reader has sampled */
static void pcs_read(struct perf_event *event)
{
	struct apmu_pcs_event *pe = event->pmu_private;

	if (!READ_ONCE(pe->stopped))
		pcs_deliver(pe);
}

/*
 * What each registration attempt starts from: a failed perf_pmu_register() can leave
 * pmu->dev (6.12) or pmu->cpu_pmu_context (7.2) pointing at what it freed, which a second
 * attempt, with the next unit, would take as its own
 */
static const struct pmu apmu_pcs_pmu_init = {
	.module = THIS_MODULE,
	.task_ctx_nr = perf_invalid_context,
	.event_init = pcs_event_init,
	.add = pcs_add,
	.del = pcs_del,
	.start = pcs_start,
	.stop = pcs_stop,
	.read = pcs_read,
};

/**
 * apmu_pcs_pmu_cpu_offline() - @cpu goes down: its sampling timers move elsewhere
 * @cpu: the CPU going down, which this runs on (before its timers would migrate,
 *	possibly to a sampled CPU)
 */
void apmu_pcs_pmu_cpu_offline(unsigned int cpu)
{
	struct apmu_pcs_event *pe;
	int reader;

	guard(raw_spinlock_irqsave)(&pcs_active_lock);
	list_for_each_entry(pe, &pcs_active, node) {
		/*
		 * Every event's timer: one left here by a racing kick would migrate with this
		 * CPU's timers, possibly to the sampled CPU. Cancelled (IRQs off: its callback
		 * is not running here) and started again on its reader.
		 */
		if (hrtimer_try_to_cancel(&pe->timer) != 1 && READ_ONCE(pe->reader) != cpu)
			continue;
		reader = READ_ONCE(pe->reader);
		if (reader == cpu) {
			reader = pcs_choose_reader(pe, cpu);
			WRITE_ONCE(pe->reader, reader);
		}
		if (reader < nr_cpu_ids)
			pcs_send_kick(pe, reader);
	}
}

/**
 * apmu_pcs_pmu_cpu_online() - @cpu comes up: it reads for events that had no reader
 * @cpu: the CPU coming up, which this runs on
 *
 * Their only choice. @cpu is not active yet (CPUHP_AP_ONLINE_DYN), which pcs_kick()
 * requires: the timer is started here.
 */
void apmu_pcs_pmu_cpu_online(unsigned int cpu)
{
	struct apmu_pcs_event *pe;

	guard(raw_spinlock_irqsave)(&pcs_active_lock);
	list_for_each_entry(pe, &pcs_active, node) {
		if (READ_ONCE(pe->reader) < nr_cpu_ids || pe->unit->cpu == cpu)
			continue;
		WRITE_ONCE(pe->reader, cpu);
		hrtimer_start(&pe->timer,
			      ns_to_ktime(pcs_interval(pe)),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
}

/**
 * apmu_pcs_pmu_register() - register the apmu_pcs PMU
 *
 * Return: 0 or perf_pmu_register()'s errno.
 */
int apmu_pcs_pmu_register(void)
{
	apmu_pcs_pmu = apmu_pcs_pmu_init;
	return perf_pmu_register(&apmu_pcs_pmu, "apmu_pcs", -1);
}

/**
 * apmu_pcs_pmu_unregister() - unregister the apmu_pcs PMU
 */
void apmu_pcs_pmu_unregister(void)
{
	perf_pmu_unregister(&apmu_pcs_pmu);
}

/* apmu.ko's sample delivery (sample.h) */
MODULE_IMPORT_NS("APMU");
