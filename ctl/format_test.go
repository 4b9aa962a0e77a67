package ctl

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

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

func TestFormatScanDump(t *testing.T) {
	b := AppendScanDump(nil, "airq0", sampleBSSes())
	golden(t, "scan-dump.txt", b)
	for _, want := range []string{"BSS 02:bb:00:00:00:01(on airq0)\n", "\tTSF: 90061000001 usec (1d, 01:01:01)\n",
		"\tfreq: 2437.0\n", "\tcapability: ESS Privacy ShortSlotTime (0x0411)\n", "\tsignal: -61.00 dBm\n",
		"\tlast seen: 120 ms ago\n", "\tSupported rates: 1.0* 2.0* 5.5* 11.0* 6.0 9.0 12.0 18.0 \n",
		"\tExtended supported rates: 24.0 36.0 48.0 54.0 HT* \n", "\tSSID: \\x20lab\\x5c5g\\x00\n",
		"\tInformation elements from Probe Response frame:\n", "\t\t * secondary channel offset: above\n",
		"\t\t * channel width: 1 (80 MHz)\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no line %q", want)
		}
	}
	if bytes.Contains(b, []byte("-71")) || bytes.Count(b, []byte("\tsignal:")) != 1 {
		t.Error("a BSS without a signal prints one")
	}
}

// iwSurveyLines are print_survey_handler's format strings in iw 5.19's
// order (survey.c); the header is printf("Survey data from %s\n").
var iwSurveyLines = []string{"Survey data from %s", "\tfrequency:\t\t\t%u MHz{| [in use]}", "\tnoise:\t\t\t\t%d dBm",
	"\tchannel active time:\t\t%llu ms", "\tchannel busy time:\t\t%llu ms", "\textension channel busy time:\t%llu ms",
	"\tchannel receive time:\t\t%llu ms", "\tchannel transmit time:\t\t%llu ms"}

func TestFormatSurveyDump(t *testing.T) {
	b := AppendSurveyDump(nil, "airq0", sampleSurveys())
	golden(t, "survey-dump.txt", b)
	// Each survey's lines match iw's in iw's order; airq's own follow and
	// match none.
	for _, sv := range sampleSurveys() {
		next, own := 0, false
		for _, l := range strings.Split(strings.TrimSuffix(string(AppendSurveyDump(nil, "airq0", []Survey{sv})), "\n"), "\n") {
			at := -1
			for i, f := range iwSurveyLines {
				if cFormat(f).MatchString(l) {
					at = i
					break
				}
			}
			switch {
			case at >= 0 && (own || at < next):
				t.Errorf("%d MHz: line %q out of iw's order", sv.Freq, l)
			case at >= 0:
				next = at + 1
			default:
				own = true
			}
		}
	}
	if bytes.Contains(b, []byte("2437 MHz\n\tchannel active time")) {
		t.Error("a channel without figures prints 0 ms times")
	}
	for _, want := range []string{"Survey data from airq0\n\tfrequency:\t\t\t2412 MHz [in use]\n\tnoise:\t\t\t\t-95 dBm\n",
		"\tchannel active time:\t\t61000 ms\n", "\tchannel busy time:\t\t9100 ms\n",
		"\tfrequency:\t\t\t2437 MHz\n\tscan dwell time:", "\tbeacons heard:\t\t\t48 (78.7/s)\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %q", want)
		}
	}
}

func TestFormatScanStatus(t *testing.T) {
	b := AppendScanStatus(nil, sampleScan())
	golden(t, "scan.txt", b)
	if !strings.HasPrefix(string(b), "mode=continuous\nchannels=3\ntrip_limit_us=92400\n") {
		t.Errorf("scan status starts %q", b[:40])
	}
}

func TestFormatRates(t *testing.T) {
	b := AppendRates(nil, "airq0", sampleRates())
	golden(t, "rates.txt", b)
	for _, want := range []string{"\tbest rate:\t72.2 MBit/s (HT20 MCS7)\n",
		"mode   guard  # best rate       airtime  max_tp  avg_tp   prob retry   suc   att    success   attempts  samples\n",
		"HT20   SGI    1 A    MCS7           246    50.0    47.2   94.4     7    40    41       1800       1890        3\n",
		"HT20   SGI    1  B   MCS6           268    45.9     0.0      -     7     0     0          0          0        0\n",
		"OFDM   -      1   P  6M            2140     5.7     5.7  100.0     7     1     1          3          3        0\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %q in\n%s", want, b)
		}
	}
	fixed := AppendRates(nil, "airq0", &RateTable{Addr: MAC{2, 0, 0, 0, 1, 1}, Best: "OFDM 54M", BestKbps: 54000})
	if string(fixed) != "Station 02:00:00:00:01:01 (on airq0)\n\trate selection:\toff (fixed rate)\n\ttx bitrate:\t54.0 MBit/s (OFDM 54M)\n" {
		t.Errorf("fixed rate:\n%s", fixed)
	}
}

func TestRatesText(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Rates
	}{
		{"", nil},
		{"1.0* 2.0 5.5* 54.0", Rates{0x82, 0x04, 0x8b, 0x6c}},
		{"HT* VHT* 63.5 63.0 0.5", Rates{0xff, 0xfe, 0x7f, 0x7e, 0x01}},
	} {
		var r Rates
		if err := r.UnmarshalText([]byte(c.in)); err != nil || !reflect.DeepEqual(r, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.in, r, err, c.want)
		}
		if b, _ := r.MarshalText(); string(b) != c.in {
			t.Errorf("%v prints %q, want %q", r, b, c.in)
		}
	}
	for _, in := range []string{" ", "1.0  2.0", "1", "1.2", "01.0", "64.0", "+1.0", "HT", "63.5*", "63.0*", "1.0**", "x.0",
		strings.Repeat("1.0 ", 255) + "1.0"} {
		var r Rates
		if err := r.UnmarshalText([]byte(in)); err == nil {
			t.Errorf("%q: accepted as %v", in, r)
		}
	}
}

func TestFormatAirtime(t *testing.T) {
	golden(t, "airtime.txt", sampleAirtime().AppendAirtime(nil))
}

// TestFormatDevs: airqctl dev lists each BSS as iw dev lists an interface,
// and warns of a BSSID whose frames go unacknowledged.
func TestFormatDevs(t *testing.T) {
	b := AppendDevs(nil, sampleDevs())
	golden(t, "dev.txt", b)
	for _, want := range []string{"Interface wlan0\n\tbss index 0\n\taddr 02:00:00:00:02:00\n\tssid lab\n\ttype AP\n",
		"\tchannel 6 (2437 MHz), width: 20 MHz (no HT)\n", "\taddress held by guest-ack\n\ttap (unknown)\n",
		"\tack watch: 16 frames, 12 retries, 3 unacknowledged\n\tWARNING: frames to 02:00:00:00:02:01 went unacknowledged"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no line %q in\n%s", want, b)
		}
	}
	if n := bytes.Count(b, []byte("WARNING")); n != 1 {
		t.Errorf("%d warnings, want 1: the first BSS's frames are acknowledged", n)
	}
}
