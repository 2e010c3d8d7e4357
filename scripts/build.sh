#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel out of tree.
# Usage: build.sh stock|stockfix|patched [FLAVOR]
#   stockfix is stock plus the series' first patch, the fix for stock SELinux.
#   FLAVOR is a config fragment name under configs/ minus ".config", applied
#   on top of tinyconfig and the architecture's guest fragment (default
#   x86_64-guest: configs/x86_64-guest.config; BENCH_ARCH=arm64:
#   arm64-guest, cross-built, see configs/arch/).  Extra fragments can be
#   stacked with '+': x86_64-guest+os, arm64-guest+os.
. "$(dirname "$0")/lib.sh"
lock_build

variant=${1:?usage: build.sh stock|stockfix|patched [flavor]}
flavor=${2:-$BA_FRAGMENT}
for f in ${flavor//+/ }; do
	case $f in
	*-guest) [ "$f" = "$BA_FRAGMENT" ] ||
		die "flavor $flavor is another architecture's than BENCH_ARCH=$BENCH_ARCH (base fragment $BA_FRAGMENT)" ;;
	esac
done
# The toolchain next: nothing is unpacked or configured for a compiler
# that is missing or known to miscompile.
mkdir -p "$BUILD"
command -v "${BA_CROSS}gcc" >/dev/null ||
	die "${BA_CROSS}gcc not found: apt-get install $BA_PACKAGES (or run scripts/deps.sh)"
arch_cc_setup
case $variant in
stock) src=$PRISTINE ;;
stockfix) need_stockfix; src=$STOCKFIX ;;
patched) need_tree; src=$PATCHED ;;
*) die "build.sh: variant must be stock, stockfix or patched, not '$variant'" ;;
esac
[ -d "$src" ] || die "no source tree $src: run 'make source'"

out=$OUTDIR/$variant-$flavor
mkdir -p "$out" "$BUILD/logs"
log=$BUILD/logs/build-$SRCID-$variant-$flavor.log
frags=()
for f in "$BA_FRAGMENT" ${flavor//+/ }; do
	[ -f "$TOP/configs/$f.config" ] || die "no config fragment configs/$f.config"
	case " ${frags[*]-} " in *" $TOP/configs/$f.config "*) ;; *) frags+=("$TOP/configs/$f.config") ;; esac
done

CCACHE=
command -v ccache >/dev/null && CCACHE="ccache "
MAKEARGS=(-C "$src" O="$out" ARCH="$BA_KARCH" CC="${CCACHE}${BA_CROSS}gcc" -j"$JOBS")
[ -z "$BA_CROSS" ] || MAKEARGS+=(CROSS_COMPILE="$BA_CROSS")
[ -z "$ARCH_CFLAGS" ] || MAKEARGS+=(KCFLAGS="$ARCH_CFLAGS")

# Regenerate .config only when the fragments change, so rebuilds stay incremental.
stamp=$(cat "${frags[@]}" | md5sum | cut -c1-32)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.fragstamp" 2>/dev/null)" != "$stamp" ]; then
	msg "configuring $variant ($flavor)"
	# Written again only when the configuration is complete, so a run
	# killed while configuring is configured again next time.
	rm -f "$out/.fragstamp"
	make "${MAKEARGS[@]}" tinyconfig >"$log" 2>&1 || { tail -20 "$log"; die "tinyconfig failed (log: $log)"; }
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "${frags[@]}") >>"$log" 2>&1 ||
		{ tail -20 "$log"; die "merge_config failed (log: $log)"; }
	make "${MAKEARGS[@]}" olddefconfig >>"$log" 2>&1 || { tail -20 "$log"; die "olddefconfig failed"; }
	# Every fragment line must have survived olddefconfig.
	# Later fragments override earlier ones, as in merge_config.sh.
	# "# CONFIG_X is not set" counts as a setting too.
	bad=$(cat "${frags[@]}" | sed -nE 's/^(CONFIG_[A-Z0-9_]+=.*)/\1/p; s/^# (CONFIG_[A-Z0-9_]+) is not set.*/\1=n/p' |
		awk -F= '{ v[$1] = $0 } END { for (k in v) print v[k] }' |
		while read -r l; do
			case $l in
			*=n) ! grep -qE "^${l%=n}=" "$out/.config" || echo "$l" ;;
			*) grep -qxF "$l" "$out/.config" || echo "$l" ;;
			esac
		done |
		# A symbol this tree does not define (the series' options in the
		# stock tree) cannot be honoured; that is not a misconfiguration.
		while read -r l; do
			sym=${l%%=*}
			! grep -rqsE "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}\$" \
				--include='Kconfig*' "$src" || echo "$l"
		done)
	[ -z "$bad" ] || warn "config lines not honoured: $(echo $bad)"
	echo "$stamp" > "$out/.fragstamp"
fi
msg "building $variant kernel ($flavor) in ${out#$TOP/}"
start=$SECONDS
make "${MAKEARGS[@]}" "$BA_TARGET" >>"$log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
	sleep 10
	kill -0 $pid 2>/dev/null && printf '    ... %s %s: %ds, %s\n' "$variant" "$flavor" \
		$((SECONDS - start)) "$(tail -1 "$log" | cut -c1-60)" >&2
done
wait $pid || { tail -30 "$log"; die "kernel build failed ($variant $flavor), log: $log"; }
msg "$variant ($flavor) built in $((SECONDS - start))s: ${out#$TOP/}/$BA_IMAGE"
