#!/usr/bin/env bash
# cmake --install into a scratch prefix: the installed tiers finds the
# installed variants, and a client program builds against the installed
# header and library through pkg-config.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
build=$(dirname "$tiers")
prefix=$tmp
unset TIERS_VARIANT_DIR TIERS_VARIANT_PATH

cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: install"; exit 1; }
check_sh "header installed" "[ -f '$prefix/include/tiers.h' ]"
check_sh "pkg-config file installed" "[ -f '$prefix/lib/pkgconfig/tiers.pc' ] || [ -f '$prefix/lib/x86_64-linux-gnu/pkgconfig/tiers.pc' ]"
check_sh "variants installed" "[ -f '$prefix/share/tiers/variants/gungi-io/variant.yaml' ]"
out=$(cd / && strace -f -e trace=openat "$prefix/bin/tiers" check gungi-io 2>&1)
check_sh "installed tiers loads gungi-io from the prefix" \
  "grep -q '$prefix/bin/../share/tiers/variants/gungi-io/variant.yaml' <<<\"\$out\" || ! command -v strace >/dev/null"
check_sh "installed tiers runs" "(cd / && '$prefix/bin/tiers' check gungi-io >/dev/null)"
if [[ -e $build/tiers-png.so ]]; then
  check_sh "installed tiers renders a PNG through its installed module" \
    "(cd / && LSAN_OPTIONS=\"\${LSAN_OPTIONS:+\$LSAN_OPTIONS:}suppressions=$tests/data/lsan.supp\" \
      '$prefix/bin/tiers' render gufuu --png -o '$tmp/i.png') && [ -s '$tmp/i.png' ] &&
     [ -n \"\$(find '$prefix' -path '*/tiers/tiers-png.so')\" ]"
fi

pc=$(dirname "$(find "$prefix" -name tiers.pc | head -1)")
cat >"$prefix/client.c" <<'C'
#include <stdio.h>
#include <tiers.h>
int main(void)
{
    tiers_error err;
    tiers_variant *v = tiers_variant_load("gungi-io", NULL, NULL, &err);
    if (!v)
        return 1;
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    long long n = p ? (long long)tiers_perft(p, 2) : -1;
    printf("%lld\n", n);
    tiers_pos_free(p);
    tiers_variant_free(v);
    return n == 729 ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH=$pc pkg-config --define-variable=prefix="$prefix" --cflags --libs tiers)
# A sanitizer build installs an instrumented library: the client must be too.
if nm -D "$prefix/lib/libtiers.so" 2>/dev/null | grep -q __asan; then
  flags="-fsanitize=address,undefined $flags"
fi
check_sh "client builds with pkg-config" "cc -std=c11 '$prefix/client.c' -o '$prefix/client' $flags"
check_sh "client runs against the installed library" \
  "(cd / && LD_LIBRARY_PATH='$prefix/lib' '$prefix/client' >/dev/null)"
cli_end
