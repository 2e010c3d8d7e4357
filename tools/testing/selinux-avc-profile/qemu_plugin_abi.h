/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin interface (plugin API version 1, as in
 * QEMU 7.2) that insn_profile.c uses, declared here because Debian ships
 * no header for it.  The plugin is loaded with qemu -plugin FILE,ARG=VAL
 * and resolves these functions from the qemu binary.
 */
#ifndef SELINUX_AVC_QEMU_PLUGIN_ABI_H
#define SELINUX_AVC_QEMU_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#define PLUGIN_EXPORT	__attribute__((visibility("default")))

typedef uint64_t plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/*
 * qemu_info_t, the install callback's info: only its first member, the
 * target's name ("x86_64", "aarch64"), is read here.
 */
struct qemu_plugin_info {
	const char *target_name;
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

#endif /* SELINUX_AVC_QEMU_PLUGIN_ABI_H */
