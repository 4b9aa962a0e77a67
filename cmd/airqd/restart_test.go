package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// fakeRadio stands in for runRadio: each start is reported on runs, is
// ready at once and runs until stopped; an SSID of "broken" fails to start.
type fakeRadio struct{ runs chan options }

func (f *fakeRadio) run(ctx context.Context, o options, _ *slog.Logger) error {
	if o.Core.SSID == "broken" {
		return errors.New("the radio refused the channel")
	}
	f.runs <- o
	if o.onReady != nil {
		o.onReady()
	}
	<-ctx.Done()
	return nil
}

// A BSS added through the global socket with settings only a start
// applies (hostap's tests: ADD, SET ssid ..., ENABLE) restarts the radio
// with them and the BSS off, as hostapd builds an added interface afresh;
// one that fails to start is refused and the previous settings run again.
func TestAddedBSSRestartsTheRadio(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// No -ssid or -channel: a flag would win over the added BSS's SET.
	args := []string{"-phy", "phy3", "-g", "/run/hostapd-global"}
	cur, err := parseFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeRadio{runs: make(chan options, 4)}
	rl := &reloader{args: args, cur: cur, log: log, radio: &radioRestarts{run: fake.run}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rl.radio.loop(ctx, cur, log) }()
	if o := <-fake.runs; o.Core.SSID != "airq" {
		t.Fatalf("first start: ssid %q", o.Core.SSID)
	}

	slot := &bssSlot{rl: rl, log: log, added: true, name: "wlan3", pending: true}
	for _, kv := range [][2]string{{"ssid", "second"}, {"channel", "11"}, {"wpa_passphrase", "12345678"}, {"wpa", "2"}} {
		if _, err := slot.setPending(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := slot.enable(context.Background()); err != nil {
		t.Fatalf("ENABLE: %v", err)
	}
	o := <-fake.runs
	if o.Core.SSID != "second" || o.Channel != 11 || o.Core.RSN == nil || !o.Core.StartDisabled || !o.keepControl {
		t.Errorf("restarted with ssid %q channel %d rsn %v start-disabled %v keep-control %v",
			o.Core.SSID, o.Channel, o.Core.RSN != nil, o.Core.StartDisabled, o.keepControl)
	}
	if rl.cur.Core.SSID != "second" || slot.pending {
		t.Errorf("running configuration %q, pending %v", rl.cur.Core.SSID, slot.pending)
	}

	slot.pending, slot.staged = true, nil
	if _, err := slot.setPending("ssid", "broken"); err != nil {
		t.Fatal(err)
	}
	if err := slot.enable(context.Background()); err == nil || !strings.Contains(err.Error(), "refused the channel") {
		t.Errorf("ENABLE of a configuration that cannot start: %v", err)
	}
	if o := <-fake.runs; o.Core.SSID != "second" {
		t.Errorf("after the failed start: ssid %q, want the previous configuration's", o.Core.SSID)
	}
	if !slot.pending || rl.cur.Core.SSID != "second" {
		t.Errorf("after the failed start: pending %v, running %q", slot.pending, rl.cur.Core.SSID)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
