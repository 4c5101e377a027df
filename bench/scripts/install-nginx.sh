#!/usr/bin/env bash
# The one-hop anchor of the bench: Debian's nginx binary (the bench runs it as the current user with its
# own config in a temp dir; the package's system service is not used). Prints the binary's path, or the
# reason it cannot be had on stdout's last line prefixed "SKIP:" and exits 0 either way, so the bench
# goes on without the anchor row.
set -u
found() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
if path=$(found); then echo "$path"; exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then echo "SKIP: no nginx and no apt-get to install it"; exit 0; fi
as_root=()
if [ "$(id -u)" != 0 ]; then
  if sudo -n true 2>/dev/null; then as_root=(sudo -n); else echo "SKIP: no nginx, and installing it needs root (no passwordless sudo)"; exit 0; fi
fi
# A policy-rc.d answering 101 ("action forbidden") keeps the package's own root service from starting
# during the install (Debian's invoke-rc.d policy interface); it is removed again afterwards.
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null && "${as_root[@]}" chmod +x "$policy" && made_policy=1
fi
"${as_root[@]}" apt-get install -y --no-install-recommends nginx >&2
status=$?
[ "$made_policy" = 1 ] && "${as_root[@]}" rm -f "$policy"
if [ "$status" != 0 ]; then echo "SKIP: apt-get install -y nginx failed (exit $status, see above)"; exit 0; fi
if path=$(found); then echo "$path"; else echo "SKIP: nginx installed but no binary found"; fi
