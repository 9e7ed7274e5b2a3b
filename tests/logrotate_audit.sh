#!/bin/sh
# SPDX-License-Identifier: MIT
# The audit log rotated by logrotate itself, with the very snippet
# maelys-pty(1) gives (Rotation, read out of the man page): records written
# by `maelys-pty decide` through its audit writer before the first
# rotation, between the two and after the second; then --verify-log over
# the three files, oldest first and decompressed, finds one chain, intact,
# each newer file starting with log_continued, and the state agreeing; with
# the middle file left out it names the missing records.  Root only (the
# configuration and its policy must be root's): otherwise it says SKIP and
# exits 77.  logrotate comes from bootstrap's packages.
set -eu

if [ "$(id -u)" -ne 0 ]; then
	echo "logrotate_audit.sh: SKIP: needs root (the configuration must be root's)" >&2
	exit 77
fi
command -v logrotate >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
command -v logrotate >/dev/null 2>&1 || {
	echo "logrotate_audit.sh: no logrotate (./bootstrap installs it)" >&2
	exit 1
}
build="${MAELYS_BUILD_ROOT:?}"
src="${MAELYS_SOURCE_ROOT:?}"
guard="$build/pty/maelys-pty"
tmp="$(mktemp -d /tmp/maelys-logrotate.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
mkdir -m 0700 "$tmp/log"

fail() {
	echo "logrotate_audit.sh: $*" >&2
	exit 1
}

"$guard" --new-audit-key "$tmp/audit.pub" --state "$tmp/audit.key" >/dev/null
printf '%s\n' 'allow(C) :- command(C), C != "rm".' \
	'allow_exec(P) :- exec_path(P).' >"$tmp/policy.dl"
cat >"$tmp/maelys-pty.conf" <<CONF
policy = $tmp/policy.dl
audit_log = $tmp/log/audit.log
audit_key = $tmp/audit.key
syslog = off
CONF
chmod 0644 "$tmp/policy.dl" "$tmp/maelys-pty.conf"

# the snippet as the man page prints it, for this log
sed -n '/^\/var\/log\/maelys\\-pty\/audit\.log {$/,/^}$/p' \
	"$src/doc/maelys-pty.1" | sed 's/\\-/-/g' |
	sed "s|^/var/log/maelys-pty/audit.log {|$tmp/log/audit.log {|" \
		>"$tmp/logrotate.conf"
grep -q nocreate "$tmp/logrotate.conf" ||
	{ cat "$tmp/logrotate.conf"; fail "no snippet read from the man page"; }

# three requests, one refused: a batch of records in the current file
batch() {
	printf '%s\n' '{"line":"ls -l"}' '{"line":"rm -rf /srv"}' \
		'{"line":"git status"}' |
		"$guard" decide --config "$tmp/maelys-pty.conf" >"$tmp/answers" ||
		{ cat "$tmp/answers"; fail "decide failed"; }
}
rotate() {
	logrotate -f -s "$tmp/logrotate.state" "$tmp/logrotate.conf" ||
		fail "logrotate failed"
}

batch
rotate
batch
rotate
batch
# delaycompress: the first rotated file is compressed at the second run
[ -f "$tmp/log/audit.log.2.gz" ] && [ -f "$tmp/log/audit.log.1" ] &&
	[ -f "$tmp/log/audit.log" ] || { ls -l "$tmp/log"; fail "not rotated as expected"; }
gzip -dc "$tmp/log/audit.log.2.gz" >"$tmp/oldest.log"
for f in "$tmp/log/audit.log.1" "$tmp/log/audit.log"; do
	head -n 1 "$f" | grep -q '"event":"log_continued"' ||
		{ head -n 1 "$f"; fail "$f does not start with log_continued"; }
done

"$guard" --config "$tmp/maelys-pty.conf" --verify-log "$tmp/oldest.log" \
	"$tmp/log/audit.log.1" "$tmp/log/audit.log" >"$tmp/verify" 2>&1 ||
	{ cat "$tmp/verify"; fail "the rotated log does not verify"; }
grep -q "chain intact" "$tmp/verify" || { cat "$tmp/verify"; fail "not intact"; }
grep -q "agrees: nothing was cut from the end" "$tmp/verify" ||
	{ cat "$tmp/verify"; fail "the state was not compared"; }

# the middle file deleted: the records it held are named missing
if "$guard" --config "$tmp/maelys-pty.conf" --verify-log "$tmp/oldest.log" \
	"$tmp/log/audit.log" >"$tmp/verify2" 2>&1; then
	cat "$tmp/verify2"
	fail "a rotation without its middle file verified"
fi
grep -q "missing between" "$tmp/verify2" ||
	{ cat "$tmp/verify2"; fail "the missing records were not named"; }
echo "logrotate_audit.sh: ok"
