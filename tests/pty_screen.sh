#!/bin/sh
# SPDX-License-Identifier: MIT
# What the screen shows, through a real terminal emulator (tmux): the
# walkthrough's session transcript, each typed line shown once (no double
# echo), and the prompt following the shell's directory.  Skips (77) when
# tmux is not installed.
set -eu

src="${MAELYS_SOURCE_ROOT:?}"
build="${MAELYS_BUILD_ROOT:?}"
command -v tmux >/dev/null 2>&1 || { echo "pty_screen.sh: no tmux: skipped"; exit 77; }
tmp="$(mktemp -d)"
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\ntouch "%s/RAN-shutdown"\n' "$tmp" >"$tmp/bin/shutdown"
chmod +x "$tmp/bin/shutdown"

tmux -S "$sock" -f /dev/null new-session -d -s screen -x 100 -y 30 \
	"HOME=$tmp TERM=xterm $build/pty/maelys-pty --policy $src/policies/level1.dl --path $tmp/bin:/usr/bin:/bin --history $tmp/history; echo SESSION-EXIT=\$?; sleep 30"

screen() { tmux -S "$sock" capture-pane -t screen -p; }
wait_for() { # text, tries
	i=0
	while [ "$i" -lt 50 ]; do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "pty_screen.sh: the screen never showed: $1"
	screen
	exit 1
}
type_line() {
	tmux -S "$sock" send-keys -t screen -l "$1"
	tmux -S "$sock" send-keys -t screen Enter
}

# the prompt ends in "$" ("#" for root); tmux drops the trailing blank
i=0
until screen | grep -qE '[$#]$'; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { echo "pty_screen.sh: no prompt"; screen; exit 1; }
	sleep 0.1
done
p='$'
[ "$(id -u)" -eq 0 ] && p='#'
type_line 'shutdown now'
wait_for "maelys-pty: 'shutdown' denied by policy"
type_line 'echo hello | grep hello'
wait_for "deny(__line__): shell metacharacter in line"
type_line 'git commit -m "feat: solver"'
wait_for 'maelys-pty: denied before solving — quoted syntax is unsupported'
type_line 'echo once-only'
wait_for 'once-only'
type_line 'cd /usr'
wait_for ":/usr$p"
type_line 'exit 3'
wait_for 'SESSION-EXIT=3'

out="$(screen)"
# every typed line is on the screen exactly once: no double echo
for l in 'shutdown now' 'echo hello | grep hello' 'echo once-only' 'cd /usr'; do
	n="$(printf '%s\n' "$out" | grep -cF -- "$p $l" || true)"
	if [ "$n" -ne 1 ]; then
		echo "pty_screen.sh: '$l' shown $n times"
		printf '%s\n' "$out"
		exit 1
	fi
done
# the output of the allowed line once, on its own line
[ "$(printf '%s\n' "$out" | grep -cx 'once-only')" -eq 1 ]
[ ! -e "$tmp/RAN-shutdown" ]
echo "pty_screen.sh: ok"
