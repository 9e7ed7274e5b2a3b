#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the default configuration at meson install time - but never over
# an existing one: an administrator's settings survive a reinstall.  Runs as
# meson's install script (honours DESTDIR).
set -eu
src="$1"
dest="${DESTDIR:-}$2"
dir="$(dirname "$dest")"
mkdir -p "$dir"
chmod 0755 "$dir"
if [ -e "$dest" ]; then
	echo "maelys-pty: keeping the existing $2"
else
	install -m 0644 "$src" "$dest"
	echo "maelys-pty: installed $2"
fi
cat <<TXT
maelys-pty: nothing is registered by this install.  To deploy (see README):
  maelys-pty-setup            # audit account, setuid guard, log folder, key
  maelys-pty --check          # can a session start? (one line a problem)
  add-shell $(command -v maelys-pty 2>/dev/null || echo /usr/local/bin/maelys-pty)
  usermod -s /usr/local/bin/maelys-pty USER
TXT
