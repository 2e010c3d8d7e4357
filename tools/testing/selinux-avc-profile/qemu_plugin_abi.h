/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin interface (plugin API version 1, as in
 * QEMU 7.2) that insn_profile.c and cache_model.c use, declared here
 * because Debian ships no header for it; the declarations follow QEMU
 * 7.2's include/qemu/qemu-plugin.h.  A plugin is loaded with qemu -plugin
 * FILE,ARG=VAL and resolves these functions from the qemu binary.
 */
#ifndef SELINUX_AVC_QEMU_PLUGIN_ABI_H
#define SELINUX_AVC_QEMU_PLUGIN_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLUGIN_EXPORT	__attribute__((visibility("default")))

typedef uint64_t plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/*
 * qemu_info_t, the install callback's info, as QEMU 7.2 lays it out: the
 * target's name ("x86_64", "aarch64"), the API versions qemu supports,
 * and in system emulation the number of vCPUs.
 */
struct qemu_plugin_info {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
};

/* enum qemu_plugin_cb_flags: the callbacks here read no registers. */
#define PLUGIN_CB_NO_REGS	0

typedef void (*plugin_tb_trans_cb)(plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*plugin_vcpu_udata_cb)(unsigned int vcpu, void *udata);
typedef void (*plugin_udata_cb)(plugin_id_t id, void *udata);

void qemu_plugin_register_vcpu_tb_trans_cb(plugin_id_t id,
					   plugin_tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  plugin_vcpu_udata_cb cb, int flags,
					  void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    plugin_vcpu_udata_cb cb, int flags,
					    void *udata);
void qemu_plugin_register_atexit_cb(plugin_id_t id, plugin_udata_cb cb,
				    void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

/* The host address of an instruction's bytes (NULL: not in RAM). */
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);

/* Memory accesses: a callback after each load or store of an instruction. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_hwaddr;

typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
/* The access's size is 1 << qemu_plugin_mem_size_shift(info) bytes. */
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
/*
 * In system emulation, the physical side of an access (NULL in user-mode
 * emulation); only valid during the memory callback.
 */
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info,
						  uint64_t vaddr);
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *haddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);

#endif /* SELINUX_AVC_QEMU_PLUGIN_ABI_H */
