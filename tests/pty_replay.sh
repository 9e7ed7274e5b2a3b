#!/bin/sh
# SPDX-License-Identifier: MIT
# `maelys-pty replay` in a real terminal emulator (tmux), on recordings
# this script writes (and one asciinema makes, when it is installed):
#   - the screen shows the recorded output; "n" plays up to the marker at
#     once and pauses there (what follows it is not shown); "." steps one
#     output while paused; space resumes and pauses; "q" quits with exit
#     status 0 and the terminal's mode as it was (stty -g before and after);
#   - ^C quits the same way; SIGTERM from elsewhere ends it with the
#     terminal's mode restored too (exit status 143);
#   - --speed 1000 plays a 10-second recording to its end; --idle-limit
#     plays a recording with a 1000-second pause to its end;
#   - a recording larger than the terminal says so on stderr, once; one
#     that fits says nothing;
#   - q in the middle of a recording that left the terminal in modes of
#     its own (the alternate screen, the cursor hidden, mouse reports)
#     gives the terminal back as a shell needs it;
#   - a recording made by `asciinema rec` plays.
# No assertion is on time: each waits (at most 10 s) for what must show.
# Skips (77) when tmux is not installed.
set -eu

build="${MAELYS_BUILD_ROOT:?}"
command -v tmux >/dev/null 2>&1 || { echo "pty_replay.sh: no tmux: skipped"; exit 77; }
tmp="$(mktemp -d)"
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
mpty="$build/pty/maelys-pty"

# The pane runs this: the terminal's mode before and after, the exit
# status, then waits to be read.
cat >"$tmp/run.sh" <<EOF
#!/bin/sh
cd "$tmp"
stty -g >"$tmp/stty.before"
sh -c 'echo \$\$ >"$tmp/pid"; exec "\$@"' sh "$mpty" replay "\$@"
echo REPLAY-EXIT=\$?
stty -g >"$tmp/stty.after"
sleep 60
EOF
chmod +x "$tmp/run.sh"

printf '%s\n' \
	'{"version": 2, "width": 80, "height": 20, "title": "fixture"}' \
	'[0.05, "o", "START-OF-RECORDING\r\n"]' \
	'[0.06, "i", "TYPED-INPUT"]' \
	'[20.0, "o", "BEFORE-MARK\r\n"]' \
	'[25.0, "m", "deny: rm -rf /"]' \
	'[25.001, "o", "AFTER-MARK\r\n"]' \
	'[600.0, "o", "STEPPED\r\n"]' \
	'[1200.0, "o", "NEVER-SHOWN\r\n"]' >"$tmp/marks.cast"
{
	echo '{"version": 2, "width": 80, "height": 20}'
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf '[%s.5, "o", "second %s\\r\\n"]\n' "$i" "$i"
	done
	printf '%s\n' '[10.0, "o", "TEN-SECONDS-DONE\r\n"]'
} >"$tmp/ten.cast"
printf '%s\n' '{"version": 2, "width": 80, "height": 20}' \
	'[0.1, "o", "IDLE-START\r\n"]' \
	'[1000.1, "o", "IDLE-CAPPED\r\n"]' >"$tmp/idle.cast"
printf '%s\n' '{"version": 2, "width": 200, "height": 50}' \
	'[0.1, "r", "220x60"]' '[0.2, "o", "WIDE-DONE\r\n"]' >"$tmp/wide.cast"

# a recording that leaves the terminal in modes of its own: the alternate
# screen, the cursor hidden, mouse reports on (a program cut off mid-way,
# or a file made to)
printf '%s\n' '{"version": 2, "width": 80, "height": 20}' \
	'[0.05, "o", "\u001b[?1049h\u001b[?25l\u001b[?1000h\u001b[?1006hHOSTILE-MODES\r\n"]' \
	'[600.0, "o", "NEVER-SHOWN\r\n"]' >"$tmp/modes.cast"

# a session that holds the server up while the replay's come and go
tmux -S "$sock" -f /dev/null new-session -d -s hold 'sleep 600'

screen() { tmux -S "$sock" capture-pane -t replay -p; }
fail() {
	echo "pty_replay.sh: $1"
	screen
	exit 1
}
wait_for() { # text
	i=0
	while [ "$i" -lt 100 ]; do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "the screen never showed: $1"
}
absent() { # text
	if screen | grep -qF -- "$1"; then fail "the screen shows: $1"; fi
}
keys() { tmux -S "$sock" send-keys -t replay "$@"; }
start() { # replay's arguments
	tmux -S "$sock" kill-session -t replay 2>/dev/null || true
	rm -f "$tmp/stty.before" "$tmp/stty.after" "$tmp/pid"
	tmux -S "$sock" new-session -d -s replay -x 100 -y 30 \
		"$tmp/run.sh $*"
}
same_mode() {
	i=0
	until [ -s "$tmp/stty.after" ]; do
		i=$((i + 1))
		[ "$i" -lt 100 ] || fail "no stty after"
		sleep 0.1
	done
	[ "$(cat "$tmp/stty.before")" = "$(cat "$tmp/stty.after")" ] ||
		fail "the terminal's mode changed: $(cat "$tmp/stty.before") -> $(cat "$tmp/stty.after")"
}

# keys: n to the marker, . a step, space twice, . again, q
start "$tmp/marks.cast"
wait_for START-OF-RECORDING
keys n
wait_for BEFORE-MARK
sleep 1 # paused at the marker: AFTER-MARK, 1 ms later, never comes alone
absent AFTER-MARK
keys .
wait_for AFTER-MARK
keys Space
keys Space
keys .
wait_for STEPPED
keys q
wait_for REPLAY-EXIT=0
absent NEVER-SHOWN
absent TYPED-INPUT
absent 'lines may wrap'
same_mode

# ^C is a key in raw mode: it quits
start "$tmp/marks.cast"
wait_for START-OF-RECORDING
keys C-c
wait_for REPLAY-EXIT=0
same_mode

# SIGTERM from elsewhere: the mode is put back, then the signal ends it
start "$tmp/marks.cast"
wait_for START-OF-RECORDING
kill -TERM "$(cat "$tmp/pid")"
wait_for REPLAY-EXIT=143
same_mode

# q in the middle of a program's screen: the terminal is given back as a
# shell needs it (the normal screen, a cursor, no mouse reports)
start "$tmp/modes.cast"
wait_for HOSTILE-MODES
keys q
i=0
until [ -s "$tmp/stty.after" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "no stty after"
	sleep 0.1
done
modes="$(tmux -S "$sock" display -p -t replay '#{alternate_on} #{cursor_flag} #{mouse_any_flag}')"
[ "$modes" = "0 1 0" ] ||
	fail "the terminal left as the recording put it (alternate, cursor, mouse: $modes)"
wait_for REPLAY-EXIT=0

start --speed 1000 "$tmp/ten.cast"
wait_for REPLAY-EXIT=0
wait_for TEN-SECONDS-DONE
wait_for 'second 9'

start --idle-limit 0.05 "$tmp/idle.cast"
wait_for REPLAY-EXIT=0
wait_for IDLE-CAPPED

start "$tmp/wide.cast"
wait_for REPLAY-EXIT=0
wait_for 'maelys-pty: replay: recorded on a 200x50 terminal, this one is 100x30: lines may wrap'
wait_for WIDE-DONE
[ "$(screen | grep -c 'lines may wrap')" -eq 1 ] || fail "the notice more than once"

if command -v asciinema >/dev/null 2>&1; then
	HOME="$tmp" asciinema rec -q -c 'printf "made by asciinema\n"' "$tmp/asciinema.cast" \
		</dev/null >/dev/null 2>&1 || fail "asciinema rec failed"
	start "$tmp/asciinema.cast"
	wait_for REPLAY-EXIT=0
	wait_for 'made by asciinema'
	same_mode
else
	echo "pty_replay.sh: no asciinema: its recording not tried"
fi
echo "pty_replay.sh: ok"
