#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the session's ssh client configuration at meson install time,
# root's and 0644 (ssh refuses a configuration others can write) - but
# never over an existing one, like the guard's own configuration: an
# administrator's settings (destinations' ports, the known hosts file)
# survive a reinstall.  Runs as meson's install script (honours DESTDIR).
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
