#!/bin/sh
# SPDX-License-Identifier: MIT
# What the screen shows of `help` and of a refusal's caret, through a real
# terminal emulator (tmux): the caret stands under the pipe of the line as
# it is still shown after the prompt, with multi-byte and wide characters
# and a tab (typed as Ctrl-V Tab) before it; `help` lists only what the
# policy allows.  Skips (77) when tmux is not installed.
set -eu

src="${MAELYS_SOURCE_ROOT:?}"
build="${MAELYS_BUILD_ROOT:?}"
command -v tmux >/dev/null 2>&1 || { echo "pty_screen_mayrun.sh: no tmux: skipped"; exit 77; }
tmp="$(mktemp -d)"
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for n in ls shutdown zz; do
	printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/$n"
	chmod +x "$tmp/bin/$n"
done

tmux -S "$sock" -f /dev/null new-session -d -s screen -x 100 -y 30 \
	"HOME=$tmp TERM=xterm LANG=C.UTF-8 $build/pty/maelys-pty --policy $src/policies/level1.dl --path $tmp/bin --history $tmp/history; echo SESSION-EXIT=\$?; sleep 30"

screen() { tmux -S "$sock" capture-pane -t screen -p; }
wait_for() { # text
	i=0
	while [ "$i" -lt 50 ]; do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "pty_screen_mayrun.sh: the screen never showed: $1"
	screen
	exit 1
}
fail() {
	echo "pty_screen_mayrun.sh: $1"
	screen
	exit 1
}

i=0
until screen | grep -qE '[$#]$'; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || fail "no prompt"
	sleep 0.1
done

# é is one column, 日本 two each, the tab goes to the next multiple of 8
tmux -S "$sock" send-keys -t screen -l 'echo é日本'
tmux -S "$sock" send-keys -t screen C-v Tab
tmux -S "$sock" send-keys -t screen -l 'x | wc'
tmux -S "$sock" send-keys -t screen Enter
wait_for "a pipe '|' at column"
# the prompt is ASCII: its width is the byte offset of "echo" in the
# echoed line; then "echo " (5), é (1), 日本 (4), the tab to the next
# multiple of 8, "x " (2): the pipe's column
echoed="$(screen | grep -F 'echo é' | tail -n 1)"
carets="$(screen | grep -A1 -F "a pipe '|' at column" | tail -n 1)"
p="$(printf '%s' "$echoed" | awk '{ print index($0, "echo") - 1 }')"
want=$(( ((p + 10) / 8 + 1) * 8 + 2 ))
got="$(printf '%s' "$carets" | awk '{ print index($0, "^") - 1 }')"
[ -n "$want" ] && [ "$want" = "$got" ] ||
	fail "the caret is at column $got, the pipe at $want"
printf '%s' "$carets" | grep -qE '^ *\^$' || fail "the caret line is not blanks and one caret"

# help: the allowed commands only (level1.dl refuses shutdown)
tmux -S "$sock" send-keys -t screen -l 'help'
tmux -S "$sock" send-keys -t screen Enter
wait_for 'of the 3 commands of PATH.'
screen | grep -qE '^ls +zz$' || fail "help did not list ls and zz in columns"
screen | grep -A3 'typed alone' | grep -q shutdown && fail "help listed shutdown"

# Tab: "z" completes to zz, the only allowed command it starts
tmux -S "$sock" send-keys -t screen -l 'z'
tmux -S "$sock" send-keys -t screen Tab
i=0
until screen | grep -qE '[$#] zz$'; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || fail "Tab did not complete zz"
	sleep 0.1
done
tmux -S "$sock" send-keys -t screen C-u
tmux -S "$sock" send-keys -t screen -l 'exit 3'
tmux -S "$sock" send-keys -t screen Enter
wait_for 'SESSION-EXIT=3'
