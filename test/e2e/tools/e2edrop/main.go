// Command e2edrop runs a program as a non-root user that keeps only the
// capabilities it is given, the way systemd's User= plus AmbientCapabilities=
// starts a service. busybox's setpriv can raise ambient capabilities but
// cannot change the user, and su drops every capability on the switch, so the
// harness needs this small step:
//
//	e2edrop -uid 1000 -gid 1000 -caps net_admin,net_raw -- airqd -phy phy1 ...
//
// It keeps the permitted set across setuid (PR_SET_KEEPCAPS), drops the
// supplementary groups, switches gid and uid, reduces the permitted,
// effective and inheritable sets to the named capabilities, raises them as
// ambient (so they survive execve of an unprivileged binary), sets
// no_new_privs, and execs the program in place (same PID, so signals reach
// it directly). -dump prints the resulting credentials instead.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

const (
	prSetKeepCaps     = 8
	prCapAmbient      = 47
	prCapAmbientRaise = 2
	prSetNoNewPrivs   = 38
	capVersion3       = 0x20080522
)

var capNames = map[string]uint{
	"chown": 0, "dac_override": 1, "dac_read_search": 2, "fowner": 3, "kill": 5,
	"setgid": 6, "setuid": 7, "net_bind_service": 10, "net_broadcast": 11,
	"net_admin": 12, "net_raw": 13, "ipc_lock": 14, "sys_module": 16, "sys_rawio": 17,
	"sys_chroot": 18, "sys_ptrace": 19, "sys_admin": 21, "sys_nice": 23, "sys_resource": 24,
}

type capHeader struct {
	version uint32
	pid     int32
}

type capData struct {
	effective, permitted, inheritable uint32
}

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "e2edrop: "+format+"\n", a...)
	os.Exit(126)
}

func prctl(op, a2, a3 uintptr) error {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, op, a2, a3, 0, 0, 0); e != 0 {
		return e
	}
	return nil
}

func main() {
	uid := flag.Int("uid", 1000, "user ID to run as")
	gid := flag.Int("gid", 1000, "group ID to run as")
	caps := flag.String("caps", "net_admin,net_raw", "capabilities to keep (comma-separated, without CAP_)")
	flag.Parse()
	if flag.NArg() == 0 {
		die("usage: e2edrop [-uid N] [-gid N] [-caps a,b] -- PROGRAM ARGS...")
	}
	var keep []uint
	var mask [2]uint32
	for _, n := range strings.Split(*caps, ",") {
		n = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(n)), "cap_")
		if n == "" {
			continue
		}
		c, ok := capNames[n]
		if !ok {
			die("unknown capability %q", n)
		}
		keep = append(keep, c)
		mask[c/32] |= 1 << (c % 32)
	}
	prog, err := exec.LookPath(flag.Arg(0))
	if err != nil {
		die("%v", err)
	}

	// Capabilities are per thread: everything from here to execve runs on
	// this one. Setuid/Setgid change every thread of the process (Go >= 1.16,
	// no cgo).
	runtime.LockOSThread()
	if err := prctl(prSetKeepCaps, 1, 0); err != nil {
		die("PR_SET_KEEPCAPS: %v", err)
	}
	if err := syscall.Setgroups(nil); err != nil {
		die("setgroups: %v", err)
	}
	if err := syscall.Setgid(*gid); err != nil {
		die("setgid %d: %v", *gid, err)
	}
	if err := syscall.Setuid(*uid); err != nil {
		die("setuid %d: %v", *uid, err)
	}
	hdr := capHeader{version: capVersion3}
	data := [2]capData{
		{effective: mask[0], permitted: mask[0], inheritable: mask[0]},
		{effective: mask[1], permitted: mask[1], inheritable: mask[1]},
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		die("capset: %v", e)
	}
	for _, c := range keep {
		if err := prctl(prCapAmbient, prCapAmbientRaise, uintptr(c)); err != nil {
			die("raise ambient capability %d: %v", c, err)
		}
	}
	if err := prctl(prSetNoNewPrivs, 1, 0); err != nil {
		die("PR_SET_NO_NEW_PRIVS: %v", err)
	}
	args := append([]string{flag.Arg(0)}, flag.Args()[1:]...)
	if err := syscall.Exec(prog, args, os.Environ()); err != nil {
		die("exec %s: %v", prog, err)
	}
}
