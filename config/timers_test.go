package config

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
)

// Each admission timer is a key: it sets its field of the core's
// configuration, which the core then takes as it is; a key left out keeps
// the core's default.
func TestTimerKeys(t *testing.T) {
	path := writeConf(t, "auth_timeout=2s\nassoc_resp_timeout=1500ms\nstatus_wait=20ms\nsender_memory=10m\nidle_release=30s\n")
	s, err := load(t, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Core
	if c.AuthTimeout != 2*time.Second || c.AssocResponseTimeout != 1500*time.Millisecond || c.StatusWait != 20*time.Millisecond ||
		c.SenderMemory != 10*time.Minute || c.IdleRelease != 30*time.Second {
		t.Fatalf("timers %v %v %v %v %v", c.AuthTimeout, c.AssocResponseTimeout, c.StatusWait, c.SenderMemory, c.IdleRelease)
	}
	c.SSID, c.BSSID, c.Channel = "x", [6]byte{2, 0, 0, 0, 0, 1}, 1
	r, err := c.Resolve()
	if err != nil || r.AuthTimeout != 2*time.Second || r.IdleRelease != 30*time.Second {
		t.Fatalf("the core's view: %v, %v %v", err, r.AuthTimeout, r.IdleRelease)
	}
	s, err = load(t, writeConf(t, "ssid=x\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c = s.Core
	c.SSID, c.BSSID, c.Channel = "x", [6]byte{2, 0, 0, 0, 0, 1}, 1
	if r, err = c.Resolve(); err != nil {
		t.Fatal(err)
	}
	for _, tm := range ap.Timers {
		if got := *tm.Field(&r); got != tm.Default {
			t.Errorf("%s: %v without the key, want the default %v", tm.Key, got, tm.Default)
		}
	}
}

// Values outside a timer's range, and values that are not durations, are
// refused naming the key and the range.
func TestTimerKeyErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"auth_timeout=50ms\n", `:1: auth_timeout: "50ms": want a duration from 100ms to 1h, such as 5s (the default)`},
		{"auth_timeout=5\n", `:1: auth_timeout: "5": want a duration from 100ms to 1h`},
		{"assoc_resp_timeout=2m\n", `:1: assoc_resp_timeout: "2m": want a duration from 10ms to 1m, such as 3s (the default)`},
		{"status_wait=0s\n", `:1: status_wait: "0s": want a duration from 1ms to 10s, such as 50ms (the default)`},
		{"sender_memory=25h\n", `:1: sender_memory: "25h": want a duration from 1s to 24h, such as 1m (the default)`},
		{"idle_release=-1s\n", `:1: idle_release: "-1s": want a duration from 100ms to 24h, such as 10s (the default)`},
	} {
		path := writeConf(t, c.text)
		if _, err := load(t, path, nil); err == nil || !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	// The range's ends are accepted.
	for _, tm := range ap.Timers {
		for _, d := range []time.Duration{tm.Min, tm.Max} {
			s, err := load(t, writeConf(t, tm.Key+"="+d.String()+"\n"), nil)
			if err != nil || *tm.Field(&s.Core) != d {
				t.Errorf("%s=%v: %v", tm.Key, d, err)
			}
		}
	}
}

// The example configuration and the README document every timer.
func TestTimerKeysDocumented(t *testing.T) {
	for _, f := range []string{"../configs/airqd.conf", "../README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tm := range ap.Timers {
			if !strings.Contains(string(b), tm.Key) {
				t.Errorf("%s does not mention %s", f, tm.Key)
			}
		}
	}
}
