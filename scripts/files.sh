# files.sh — sourced by run-all: the one way it reads, writes and locks a run
# directory, which is untrusted input (copied from another machine, made by
# hand).  Nothing is read or written through a symbolic link it did not make,
# no read waits on a FIFO, a write never leaves half a file, one run-all at a
# time works in a directory, and no value it reads reaches a shell, awk or
# gnuplot as code.  Needs die and out_unwritable (run-all's).

# read_file FILE MAX: FILE's bytes on stdout, when it is a regular file of at
# most MAX bytes; else one line on stderr and status 1.  dd opens it with
# O_NOFOLLOW|O_NONBLOCK: a link or FIFO swapped in after the test below is
# refused, or reads as empty, instead of being followed or waited on.
read_file() {
	if [ -L "$1" ] || [ ! -f "$1" ]; then
		echo "run-all: '$(printable "$1")' is not a regular file" >&2
		return 1
	fi
	rf_size=$(stat -c %s -- "$1") || return 1
	if [ "$rf_size" -gt "$2" ]; then
		echo "run-all: '$(printable "$1")' is larger than $2 bytes: not a file run-all wrote" >&2
		return 1
	fi
	dd if="$1" bs=65536 count="$2" iflag=count_bytes,nofollow,nonblock status=none
}

# write_file FILE [TEXT]: TEXT and a newline, else stdin, into FILE, written
# aside (a new file in FILE's directory, mktemp's O_EXCL) and renamed over it:
# a link or FIFO in FILE's place is replaced, never followed, and a reader
# never sees half of it.  A directory that takes no more writes (full,
# removed) stops run-all -- so never call it in a pipeline's subshell.
write_file() {
	wf_tmp=$(mktemp -- "$(dirname -- "$1")/.run-all-tmp.XXXXXX" 2>/dev/null) || out_unwritable "$(dirname -- "$1")"
	if [ $# -ge 2 ]; then printf '%s\n' "$2" >"$wf_tmp"; else cat >"$wf_tmp"; fi 2>/dev/null || {
		rm -f -- "$wf_tmp"
		out_unwritable "$(dirname -- "$1")"
	}
	install_file "$wf_tmp" "$1"
}

# install_file TMP FILE: run-all's own TMP (in FILE's file system) renamed to
# FILE, with the mode the umask gives a new file (mktemp's is 0600).  mv -T
# renames onto FILE itself, never into a directory FILE names: a directory
# there is an error, not a destination.
install_file() {
	[ -d "$1" ] || chmod =rw -- "$1" 2>/dev/null
	mv -fT -- "$1" "$2" 2>/dev/null && return 0
	rm -rf -- "$1"
	[ -d "$2" ] && [ ! -L "$2" ] && die "cannot write '$(printable "$2")': a directory is in its place"
	out_unwritable "$(dirname -- "$2")"
}

# printable TEXT: TEXT for a one-line message: control characters (a newline
# in a file name) as '?'.
printable() { printf '%s' "$1" | tr '\000-\037\177' '?'; }

# sh_quote TEXT: TEXT as one shell word, for a command a message suggests.
sh_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# gp_string TEXT: a gnuplot expression whose value is TEXT, whatever it holds.
# gnuplot 5 (src/scanner.c) substitutes `backquotes` and reads backslash
# escapes only in double-quoted strings, and takes a single-quoted one as it
# is up to its closing quote -- but its '' escape is looked for a character
# ahead (a quote first, last or next to another ends the string early), and
# its @macro expansion, before that, counts every quote on the line, double
# or single, to tell what is quoted.  So TEXT goes as single-quoted pieces
# holding no quote at all, joined by sprintf("%c",39) (a quote, written
# without one): every @ or # of TEXT is inside a piece, for both.
# ('it'.sprintf("%c",39).'s'); tests/hostile-runall.t proves it on a string
# of every such character.
gp_string() {
	gq=$(printf '%s' "$1" | sed "s/'/'.sprintf(\"%c\",39).'/g"; echo x)
	printf "('%s')" "${gq%x}"
}

# ---- what a run directory may hold ----
# Directories and regular files, nothing else: a symbolic link, FIFO, socket
# or device where run-all, lockbench or lbcompare read or write (the
# directory's own files, runs/NAME/*, logs/, data/, plots/) is refused in one
# line before anything is read from it.
vet_dir() { # DIR OPTION
	for vf in settings plan.txt variants.txt run-env report.md .run-all-owner runs logs data plots; do
		[ -e "$1/$vf" ] || [ -L "$1/$vf" ] || continue
		case $vf in
		runs | logs | data | plots) [ -d "$1/$vf" ] && [ ! -L "$1/$vf" ] && continue ;;
		*) [ -f "$1/$vf" ] && [ ! -L "$1/$vf" ] && continue ;;
		esac
		vet_refuse "$2" "$1/$vf" "$(find "$1/$vf" -maxdepth 0 -printf %y)"
	done
	for vf in runs logs data plots; do
		[ -d "$1/$vf" ] || continue
		vd=2
		[ $vf = runs ] || vd=1
		# find prints the first odd entry as its type letter, a slash, then its
		# path (which may hold a newline: only the first line is read).
		vbad=$(find "$1/$vf" -mindepth 1 -maxdepth $vd ! -type d ! -type f -printf '%y/%p\n' -quit)
		[ -z "$vbad" ] || vet_refuse "$2" "${vbad#?/}" "${vbad%%/*}"
	done
}
vet_refuse() { # OPTION PATH TYPE
	case $3 in
	l) vt="a symbolic link" ;;
	p) vt="a FIFO" ;;
	s) vt="a socket" ;;
	c | b) vt="a device" ;;
	d) vt="a directory" ;;
	f) vt="a file" ;;
	*) vt="neither a file nor a directory" ;;
	esac
	die "$1: '$(printable "$2")' is $vt: a run-all directory holds only directories and regular files, each where it belongs"
}

# ---- one run-all per directory ----
# flock(1) on the directory itself, through a descriptor the caller opened
# on it (`exec 9<DIR`) and keeps for as long as it works there (a lock file
# would be one more name to trust).  The kernel drops the lock when run-all
# and its children have closed it, so no crash leaves a stale lock;
# .run-all-owner names the holder for the next one's refusal.
lock_dir() { # DIR OPTION FD
	command -v flock >/dev/null 2>&1 || die "flock(1) (util-linux) is not installed: run-all needs it to keep a directory to one run-all"
	flock -n -E 75 "$3"
	case $? in
	0) ;;
	75)
		lk_owner=$(read_file "$1/.run-all-owner" 64 2>/dev/null | tr -cd 0-9)
		die "$2: '$(printable "$1")' is in use by run-all (pid ${lk_owner:-unknown}): one run-all per directory; wait for it, or stop it" ;;
	*) die "$2: cannot lock '$(printable "$1")' (flock failed)" ;;
	esac
	write_file "$1/.run-all-owner" $$
}
