package ctl

import (
	"bytes"
	"strings"
	"testing"
)

func TestFormatStation(t *testing.T) {
	var b []byte
	for i := range sampleStations() {
		b = AppendStation(b, "airq0", &sampleStations()[i])
	}
	golden(t, "station-dump.txt", b)
	// The lines iw prints keep iw's exact spelling and separators.
	for _, want := range []string{"Station 02:00:00:00:01:00 (on airq0)\n", "\tinactive time:\t36 ms\n",
		"\tsignal:  \t-42 dBm\n", "\ttx bitrate:\t54.0 MBit/s\n", "\ttx bitrate:\t5.5 MBit/s\n",
		"\ttx duration:\t250000 us\n", "\tairtime weight: 512\n", "\tconnected time:\t61 seconds\n",
		"\tairtime deficit:\tVO: 512 us VI: 512 us BE: -1234 us BK: 512 us\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no line %q", want)
		}
	}
}

func TestFormatAQL(t *testing.T) {
	q := sampleAQL()
	if got := string(q.AppendTxqLimit(nil)); got != "AC\tAQL limit low\tAQL limit high\nVO\t5000\t\t12000\nVI\t5000\t\t12000\nBE\t500\t\t1000\nBK\t5000\t\t12000\n" {
		t.Errorf("aql_txq_limit:\n%s", got)
	}
	if got := string(q.AppendThreshold(nil)); got != "24000\n" {
		t.Errorf("aql_threshold %q", got)
	}
	if got := string(q.AppendPending(nil)); got != "AC     AQL pending\nVO     0 us\nVI     0 us\nBE     1400 us\nBK     0 us\ntotal  1400 us\n" {
		t.Errorf("aql_pending:\n%s", got)
	}
	golden(t, "aql.txt", q.AppendAQL(nil))
}

func TestFormatStatus(t *testing.T) {
	b := AppendStatus(nil, sampleStatus())
	golden(t, "status.txt", b)
	if !strings.HasPrefix(string(b), "ssid=\"airq \\\"lab\\\"\"\nbssid=02:00:00:00:02:00\nchannel=6\n") {
		t.Errorf("status starts %q", b[:40])
	}
	s := sampleStatus()
	s.SSID = "plain"
	if !strings.HasPrefix(string(AppendStatus(nil, s)), "ssid=plain\n") {
		t.Error("a plain SSID is quoted")
	}
}

func TestFormatScheduler(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteScheduler(&buf, sampleScheduler()); err != nil {
		t.Fatal(err)
	}
	golden(t, "scheduler.txt", buf.Bytes())
}
