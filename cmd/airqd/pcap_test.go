package main

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// tsharkPath finds tshark. The gate installs it (mk/tshark.mk): without it
// this test cannot check the capture, so it fails rather than skips.
func tsharkPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tshark")
	if err != nil {
		t.Fatalf("tshark not found (%v): the -pcap tests decode airqd's capture with Wireshark's dissectors; "+
			"install it with `make tshark` (Debian: apt-get install tshark)", err)
	}
	return p
}

// airqd -radio sim -pcap writes a capture that Wireshark decodes without a
// malformed frame, holding what a capture of a real radio holds: the
// frames airq sends (with its TX header, whose preamble and coding
// Wireshark no longer has to assume), their TX-status echoes, and the
// stations' frames as received, from the first beacon to association and
// (A-MSDU) data.
func TestPcapSimDecodes(t *testing.T) {
	tshark := tsharkPath(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"HT 2.4GHz", []string{"-channel", "6", "-ht", "-amsdu", "3839"}},
		{"VHT 5GHz", []string{"-channel", "36", "-country", "US", "-vht", "-amsdu", "7935"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, logged := simCapture(t, tc.args...)
			out, err := exec.Command(tshark, "-n", "-r", path, "-Y", "_ws.malformed").Output()
			if err != nil || len(out) != 0 {
				t.Errorf("tshark -Y _ws.malformed: %v\n%s", err, out)
			}
			frames := decode(t, tshark, path)
			if len(frames) != logged {
				t.Errorf("tshark read %d frames, airqd wrote %d", len(frames), logged)
			}
			checkFrames(t, frames)
		})
	}
}

const pcapSSID = "airq-pcap"

// simCapture runs airqd -radio sim with two stations and -pcap until the
// capture is half its 2 MiB bound, stops it with SIGTERM and returns the
// file and the number of frames airqd says it wrote.
func simCapture(t *testing.T, args ...string) (string, int) {
	path := filepath.Join(t.TempDir(), "f.pcap")
	d := startDaemon(t, append([]string{"-pcap", path, "-pcap-max-mb", "2", "-sim-stations", "2", "-sim-join", "5ms",
		"-ssid", pcapSSID}, args...)...)
	waitAssociated(t, d, 2, 10*time.Second)
	waitUntil(t, "a 1 MiB capture", 10*time.Second, func() bool {
		fi, err := os.Stat(path)
		return err == nil && fi.Size() >= 1<<20
	})
	stopDaemon(t, d)
	m := regexp.MustCompile(`msg="pcap closed" .*frames=(\d+) dropped=\d+`).FindStringSubmatch(d.log())
	if m == nil {
		t.Fatalf("no \"pcap closed\" line in airqd's log")
	}
	n, _ := strconv.Atoi(m[1])
	return path, n
}

// frame is what the checks need of one decoded frame.
type frame struct {
	num       string
	delta     float64
	protocols string
	kind      frameKind
	preamble  string // radiotap FLAGS' short-preamble bit, "" without FLAGS
	subtype   uint64 // type<<4 | subtype, as Wireshark's wlan.fc.type_subtype
	ssid      string
	amsdu     int    // A-MSDU subframes
	expert    string // expert info groups, comma-separated
}

type frameKind int

const (
	sent     frameKind = iota // airq's TX header: FLAGS and TX_FLAGS
	echoed                    // mac80211's TX-status header: TX_FLAGS, no FLAGS
	received                  // mac80211's RX header: FLAGS, no TX_FLAGS
)

var tsharkFields = []string{"frame.number", "frame.time_delta", "frame.protocols", "radiotap.present.flags",
	"radiotap.present.txflags", "radiotap.flags.preamble", "wlan.fc.type_subtype", "wlan.ssid",
	"wlan_aggregate.a_mdsu.length", "_ws.expert.group"}

// decode has tshark print the fields of every frame.
func decode(t *testing.T, tshark, path string) []frame {
	t.Helper()
	args := []string{"-n", "-r", path, "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,"}
	for _, f := range tsharkFields {
		args = append(args, "-e", f)
	}
	out, err := exec.Command(tshark, args...).Output()
	if err != nil {
		t.Fatalf("tshark -T fields: %v", err)
	}
	var frames []frame
	for line := range strings.Lines(string(out)) {
		c := strings.Split(strings.TrimSuffix(line, "\n"), "|")
		if len(c) != len(tsharkFields) {
			t.Fatalf("tshark line %q: %d fields, want %d", line, len(c), len(tsharkFields))
		}
		f := frame{num: c[0], protocols: c[2], preamble: c[5], expert: c[9]}
		f.delta, _ = strconv.ParseFloat(c[1], 64)
		switch flags, tx := isTrue(c[3]), isTrue(c[4]); {
		case flags && tx:
			f.kind = sent
		case tx:
			f.kind = echoed
		case flags:
			f.kind = received
		default:
			t.Fatalf("frame %s: a radiotap header with neither FLAGS nor TX_FLAGS", f.num)
		}
		f.subtype, _ = strconv.ParseUint(c[6], 0, 16)
		f.ssid = c[7]
		if b, err := hex.DecodeString(c[7]); err == nil {
			f.ssid = string(b) // older tshark prints the SSID in hex
		}
		if c[8] != "" {
			f.amsdu = strings.Count(c[8], ",") + 1
		}
		frames = append(frames, f)
	}
	return frames
}

// isTrue reads a tshark boolean (1 or True, by version).
func isTrue(s string) bool { return s == "1" || s == "True" }

// Wireshark's expert-info group for a value it had to assume (PI_ASSUMPTION).
const expertAssumption = "218103808"

// checkFrames checks the decoded capture: times in order, every frame
// 802.11 behind radiotap, the MLME exchange and data each way, A-MSDUs
// with their subframes, and nothing assumed about the frames airq sent.
func checkFrames(t *testing.T, frames []frame) {
	t.Helper()
	seen := map[frameKind]map[uint64]int{sent: {}, echoed: {}, received: {}}
	amsdus, beacons := 0, 0
	for _, f := range frames {
		if f.delta < 0 {
			t.Errorf("frame %s: %v s before the one it follows", f.num, f.delta)
		}
		if !strings.HasPrefix(f.protocols, "radiotap:wlan_radio:wlan") {
			t.Errorf("frame %s decodes as %s", f.num, f.protocols)
		}
		seen[f.kind][f.subtype]++
		if f.kind != sent {
			continue
		}
		if f.preamble != "0" && f.preamble != "False" || strings.Contains(f.expert, expertAssumption) {
			t.Errorf("frame %s (sent, type %#x): preamble bit %q, expert groups %q; want long and nothing assumed",
				f.num, f.subtype, f.preamble, f.expert)
		}
		switch f.subtype {
		case subtypeBeacon:
			beacons++
			if f.ssid != pcapSSID {
				t.Errorf("beacon %s: SSID %q, want %q", f.num, f.ssid, pcapSSID)
			}
		case subtypeQoSData:
			if f.amsdu > 0 && strings.Count(f.protocols, ":ip:") == f.amsdu {
				amsdus++
			}
		}
	}
	if len(seen[sent]) == 0 {
		t.Fatalf("no frame carries airq's TX header (FLAGS and TX_FLAGS); echoed %v, received %v", seen[echoed], seen[received])
	}
	for _, w := range []struct {
		kind    frameKind
		subtype uint64
		what    string
	}{
		{sent, subtypeBeacon, "beacons sent"}, {echoed, subtypeBeacon, "beacon echoes"},
		{received, subtypeProbeReq, "probe requests received"}, {sent, subtypeProbeResp, "probe responses sent"},
		{received, subtypeAuth, "authentications received"}, {sent, subtypeAuth, "authentications sent"},
		{received, subtypeAssocReq, "association requests received"}, {sent, subtypeAssocResp, "association responses sent"},
		{sent, subtypeQoSData, "QoS data sent"}, {echoed, subtypeQoSData, "QoS data echoes"},
		{received, subtypeQoSData, "QoS data received"},
	} {
		if seen[w.kind][w.subtype] == 0 {
			t.Errorf("no %s", w.what)
		}
	}
	if amsdus == 0 {
		t.Error("no A-MSDU sent with its subframes decoded to IP")
	}
	t.Logf("%d frames: %d beacons and %d A-MSDUs sent; sent %v, echoed %v, received %v (by type<<4|subtype)",
		len(frames), beacons, amsdus, seen[sent], seen[echoed], seen[received])
}

// Wireshark's wlan.fc.type_subtype values of the frames checked.
const (
	subtypeAssocReq  = ieee80211.SubtypeAssocReq
	subtypeAssocResp = ieee80211.SubtypeAssocResp
	subtypeProbeReq  = ieee80211.SubtypeProbeReq
	subtypeProbeResp = ieee80211.SubtypeProbeResp
	subtypeBeacon    = ieee80211.SubtypeBeacon
	subtypeAuth      = ieee80211.SubtypeAuth
	subtypeQoSData   = 0x28
)
