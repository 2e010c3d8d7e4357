// SPDX-License-Identifier: GPL-2.0
/*
 * A GCC plugin for the SH4 cross compiler of Debian 12 (gcc-sh4-linux-gnu,
 * 12.2.0-13cross1): it turns off the SH back end's "sh_treg_combine"
 * passes, which there delete the load and the tst in front of a
 * conditional branch ("return *p ? 3 : 9" becomes a branch on whatever the
 * T bit holds), so that kernels built with it hang at boot.  Without the
 * passes the code is the plain load, tst and branch.  scripts/arch/sh4.sh
 * (sh_cc_setup) builds it with the host's g++ against that compiler's
 * plugin headers and uses it only when a probe shows the miscompilation
 * and shows it gone with the plugin.  Built kernels then differ from
 * those of a correct compiler only where these passes would have merged
 * T-bit computations.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree-pass.h"

#include <string.h>

int plugin_is_GPL_compatible;

static const char prefix[] = "sh_treg_combine";

/* PLUGIN_OVERRIDE_GATE: called for every pass with its gate's verdict. */
static void no_treg_combine(void *gcc_data, void *user_data)
{
	bool *run = (bool *)gcc_data;

	if (current_pass && current_pass->name &&
	    !strncmp(current_pass->name, prefix, sizeof(prefix) - 1))
		*run = false;
}

int plugin_init(struct plugin_name_args *info,
		struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version))
		return 1;
	register_callback(info->base_name, PLUGIN_OVERRIDE_GATE,
			  no_treg_combine, NULL);
	return 0;
}
