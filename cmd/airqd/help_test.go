package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBin runs a built binary and returns its streams and exit status.
func runBin(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// -h prints the usage once, on stdout; a bad flag gets its one line and
// the way to -h, not the usage.
func TestHelpOnceAndBadFlagOneLine(t *testing.T) {
	binaries(t)
	out, errs, code := runBin(t, exec.Command(airqdBin, "-h"))
	if code != 0 || strings.Count(out, "usage: airqd") != 1 || !strings.Contains(out, "-control string") || errs != "" {
		t.Errorf("-h: exit %d, %d usages\n%s\nstderr %q", code, strings.Count(out, "usage: airqd"), out, errs)
	}
	out, errs, code = runBin(t, exec.Command(airqdBin, "-radio", "sim", "-beacon-int", "often"))
	want := "airqd: invalid value \"often\" for flag -beacon-int: parse error\n(run airqd -h for the flags)\n"
	if code != 2 || out != "" || errs != want {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q; want %q", code, out, errs, want)
	}
}

// An explicit -control path needs its directory: airqd says so and makes
// none.
func TestControlPathWithoutItsDirectory(t *testing.T) {
	binaries(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "nonexistent", "dir", "x.sock")
	_, errs, code := runBin(t, exec.Command(airqdBin, "-radio", "sim", "-control", sock))
	if code != 1 || !strings.Contains(errs, "directory "+filepath.Dir(sock)+" does not exist: create it, or choose another -control path") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("airqd made a directory: %v", err)
	}
}

// As a normal user airqd and airqctl meet in the user's runtime
// directory; without one airqd says to give -control or use sudo.
func TestIntegrationNonRootDefaultSocket(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the binaries as another user")
	}
	binaries(t)
	const uid, gid = 65534, 65534 // nobody
	for _, p := range []string{binDir, airqdBin, airqctlBin} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	asNobody := func(env []string, name string, args ...string) *exec.Cmd {
		c := exec.Command(name, args...)
		c.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=/"}, env...)
		c.Dir = "/"
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
		return c
	}
	_, errs, code := runBin(t, asNobody(nil, airqdBin, "-radio", "sim"))
	if code != 2 || !strings.Contains(errs, "XDG_RUNTIME_DIR is unset") || !strings.Contains(errs, "give -control PATH") ||
		!strings.Contains(errs, "sudo") {
		t.Errorf("without a runtime directory: exit %d, %q", code, errs)
	}

	xdg, err := os.MkdirTemp("", "airq-xdg") // t.TempDir's parent is root's alone
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(xdg) })
	if err := os.Chown(xdg, uid, gid); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_RUNTIME_DIR=" + xdg}
	d := asNobody(env, airqdBin, "-radio", "sim", "-sim-stations", "1")
	var dlog bytes.Buffer
	d.Stderr = &dlog
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Wait() }()
	defer func() {
		d.Process.Signal(syscall.SIGTERM)
		<-done
		if t.Failed() {
			t.Logf("airqd's log:\n%s", dlog.String())
		}
	}()
	var out string
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
		if out, errs, code = runBin(t, asNobody(env, airqctlBin, "status")); code == 0 {
			break
		}
	}
	if code != 0 || !strings.Contains(out, "ssid=airq") {
		t.Fatalf("airqctl status as the same user: exit %d, %q, %q", code, out, errs)
	}
	if fi, err := os.Stat(filepath.Join(xdg, "airq", "airqd.sock")); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("socket: %v, %v", fi, err)
	}
}
