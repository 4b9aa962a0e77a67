package main

import (
	"strings"
	"testing"
)

// A start refused for its configuration prints the problems -check-config
// prints for the same file, warnings included, and points to -h only when
// a problem is on the command line.
func TestStartRefusedAsCheckConfig(t *testing.T) {
	path := writeConf(t, "interface=wlan0\nssid=x\nbeacon_int=5\n")
	check := func(args ...string) string {
		o, err := parseFlags(append(args, "-check-config", path))
		var out strings.Builder
		checkConfig(o, err, &out)
		return out.String()
	}
	start := func(args ...string) string {
		o, err := parseFlags(append(args, "-config", path))
		if err == nil {
			t.Fatalf("%v: started", args)
		}
		var out strings.Builder
		startRefused(&out, o, err)
		return out.String()
	}

	got, want := start("-radio", "sim"), check("-radio", "sim")
	wantLines := strings.Split(strings.TrimSpace(want), "\n")
	if !strings.Contains(want, "warning: interface") {
		t.Fatalf("-check-config has no warning:\n%s", want)
	}
	for _, line := range wantLines[:len(wantLines)-1] {
		if !strings.Contains(got, "airqd: "+line+"\n") {
			t.Errorf("start lacks %q:\n%s", line, got)
		}
	}
	if !strings.Contains(got, "airqd: not started: 1 error, 1 warning\n") || strings.Contains(got, "airqd -h") {
		t.Errorf("every problem in the file:\n%s", got)
	}

	got = start("-radio", "sim", "-nice", "40")
	if !strings.Contains(got, "-nice: 40") || !strings.Contains(got, "(run airqd -h for the flags)") {
		t.Errorf("a flag's problem:\n%s", got)
	}
}
