#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the shipped configuration files at meson install time - the
# guard's own and the session's ssh client configuration, each given as a
# pair SOURCE DESTINATION, root's and 0644 (ssh refuses a configuration
# others can write) - but never over an existing one: an administrator's
# settings (the policy, the destinations' ports, the known hosts file)
# survive a reinstall.  Runs as meson's install script (honours DESTDIR).
set -eu
while [ "$#" -ge 2 ]; do
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
	shift 2
done
cat <<TXT
maelys-pty: nothing is registered by this install.  To deploy (see README):
  maelys-pty-setup            # audit account, setuid guard, log folder, key
  maelys-pty --check          # can a session start? (one line a problem)
  add-shell $(command -v maelys-pty 2>/dev/null || echo /usr/local/bin/maelys-pty)
  usermod -s /usr/local/bin/maelys-pty USER
TXT
