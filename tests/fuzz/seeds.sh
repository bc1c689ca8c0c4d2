#!/bin/sh
# Seed corpora for the fuzz targets, made from real objects: the tests'
# modules built through Kbuild (with the plugin when it is built, so they
# carry .note.ksunset), the hand-made record objects, their compressed
# forms, the records inside them, the tests' schedules and a slice of the
# kernel's Module.symvers.  Usage: seeds.sh OUTDIR
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
plugin=$top/build/ksunset.so
kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
rm -rf "$out"
mkdir -p "$out/schedule" "$out/symvers" "$out/record" "$out/module" "$out/tmp"
tmp=$out/tmp

for f in "$top"/tests/data/*.schedule "$top"/tests/data/schedules/*.schedule \
	"$top"/examples/schedules/*.schedule "$top"/tests/kbuild/*.schedule; do
	[ -f "$f" ] && cp "$f" "$out/schedule/$(basename "$f")"
done

objs=""
for s in "$top"/tests/data/elf/*.S; do
	o=$tmp/$(basename "$s" .S).o
	cc -c -o "$o" "$s"
	objs="$objs $o"
done
if [ -n "$kdir" ]; then
	kcf=""
	[ -f "$plugin" ] && kcf="-fplugin=$plugin -fplugin-arg-ksunset-schedule=$top/tests/data/check.schedule -fplugin-arg-ksunset-quiet"
	for m in "$top"/tests/modules/*/ "$top"/tests/kbuild/*/; do
		[ -d "$m" ] || continue
		d=$tmp/kb-$(basename "$m")
		rm -rf "$d" && mkdir -p "$d" && cp -r "$m". "$d"/
		if make -C "$kdir" M="$d" KCFLAGS="$kcf" modules >"$d.log" 2>&1; then
			objs="$objs $(ls "$d"/*.ko "$d"/*.o 2>/dev/null | grep -v '\.mod\.o$' | tr '\n' ' ')"
		else
			echo "seeds: cannot build $m (see $d.log); going on without it" >&2
		fi
	done
	head -n 300 "$kdir/Module.symvers" >"$out/symvers/kernel-head"
	grep -m 200 'EXPORT_SYMBOL_GPL' "$kdir/Module.symvers" >"$out/symvers/kernel-gpl"
	grep -m 50 -P '\t[A-Z_]+$' "$kdir/Module.symvers" >"$out/symvers/kernel-ns" || true
fi

# DWARF-bearing seeds, kept whole: the DWARF source's test module and
# objects (dwarf/dwarf.c reads .debug_* and their relocations)
dwobjs=""
if [ -n "$kdir" ]; then
	d=$tmp/kb-dwarf
	rm -rf "$d" && mkdir -p "$d" && cp -r "$top"/tests/dwarf/kmod/. "$d"/
	if make -C "$kdir" M="$d" modules >"$d.log" 2>&1; then dwobjs="$d/dwarf_demo.ko"; fi
fi
for cc in gcc clang-14; do
	command -v $cc >/dev/null || continue
	$cc -g -O2 -I"$top"/tests/dwarf/clang/include -c -o "$tmp/user-$cc.o" \
		"$top"/tests/dwarf/clang/user.c && dwobjs="$dwobjs $tmp/user-$cc.o"
done
for o in $dwobjs; do
	cp "$o" "$out/module/dwarf-$(basename "$o")"
done

n=0
for o in $objs; do
	n=$((n + 1))
	b=$n-$(basename "$o")
	# debug info is most of a module's bytes and none of what we read
	strip --strip-debug -o "$out/module/$b" "$o"
	# every record of the object, one seed each
	rm -f "$tmp/note"
	if objcopy --dump-section .note.ksunset="$tmp/note" "$o" "$tmp/junk" 2>/dev/null &&
		[ -s "$tmp/note" ]; then
		python3 - "$tmp/note" "$out/record/$b" <<'EOP'
import struct, sys
data = open(sys.argv[1], "rb").read()
off = i = 0
while off + 12 <= len(data):
    namesz, descsz, _ = struct.unpack_from("<III", data, off)
    doff = off + 12 + (namesz + 3) // 4 * 4
    for rec in data[doff:doff + descsz].split(b"\0"):
        if rec:
            open("%s-%d" % (sys.argv[2], i), "wb").write(rec)
            i += 1
    off = doff + (descsz + 3) // 4 * 4
EOP
	fi
done
o=$out/module/1-$(basename "$(echo $objs | cut -d' ' -f1)")
xz -c "$o" >"$out/module/xz"
zstd -q -c "$o" >"$out/module/zst"
gzip -c "$o" >"$out/module/gz"
rm -rf "$tmp"
for t in schedule symvers record module; do
	echo "seeds: $t: $(ls "$out/$t" | wc -l) files"
done
