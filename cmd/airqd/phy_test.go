package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/nl80211"
)

func TestPHYFlags(t *testing.T) {
	o, err := parseFlags([]string{"-phy", "phy0", "-channel", "36", "-vht", "-amsdu", "7935"})
	if err != nil {
		t.Fatal(err)
	}
	if p := o.core.PHY; !p.HT || !p.VHT || p.Width != 80 || !p.ShortGI || o.core.AMSDU != 7935 {
		t.Errorf("PHY %+v amsdu %d", p, o.core.AMSDU)
	}
	o, err = parseFlags([]string{"-phy", "phy0", "-channel", "6", "-ht", "-ht40", "-"})
	if err != nil || o.core.PHY.Width != 40 || o.core.PHY.Secondary != -1 {
		t.Errorf("HT40-: %+v %v", o.core.PHY, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-ht40", "+"}, "-ht40: needs -ht"},
		{[]string{"-ht", "-ht40", "x"}, "-ht40"},
		{[]string{"-ht", "-width", "30"}, "-width"},
		{[]string{"-amsdu", "7935"}, "-amsdu"},
		{[]string{"-ht", "-amsdu", "100"}, "-amsdu"},
		{[]string{"-scan-mode", "often"}, "-scan-mode"},
	} {
		_, err := parseFlags(append([]string{"-phy", "phy0"}, c.args...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %s", c.args, err, c.want)
		}
	}
}

func TestHostapdHTVHTKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "airqd.conf")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	conf := "interface=airq0\nssid=x\nhw_mode=a\nchannel=36\nieee80211n=1\nht_capab=[HT40+][SHORT-GI-20][SHORT-GI-40]\n" +
		"ieee80211ac=1\nvht_oper_chwidth=1\nvht_oper_centr_freq_seg0_idx=42\nvht_capab=[SHORT-GI-80][MAX-MPDU-11454]\namsdu=11424\nscan=1\nscan_mode=periodic\nscan_period=30s\n"
	o, err := parseFlags([]string{"-phy", "phy0", "-config", write(conf)})
	if err != nil {
		t.Fatal(err)
	}
	if p := o.core.PHY; !p.VHT || p.Width != 80 || p.Secondary != 1 || o.core.AMSDU != 11424 || !o.phyOpt.scan || o.phyOpt.scanMode != "periodic" {
		t.Errorf("PHY %+v, options %+v", p, o.phyOpt)
	}
	for _, c := range []struct{ conf, want string }{
		{"channel=36\nieee80211ac=1\nvht_oper_chwidth=1\nvht_oper_centr_freq_seg0_idx=58\n", "vht_oper_centr_freq_seg0_idx"},
		{"ht_capab=[GF]\n", "ht_capab"},
		{"vht_oper_chwidth=3\n", "vht_oper_chwidth"},
	} {
		_, err := parseFlags([]string{"-phy", "phy0", "-config", write("ssid=x\n" + c.conf)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error naming %s", c.conf, err, c.want)
		}
	}
}

// testBands is a phy with the same HT capabilities on 2.4 and 5 GHz and
// VHT capabilities on 5 GHz.
func testBands(ht uint16, vht uint32) nl80211.PHY {
	return nl80211.PHY{Name: "phy0", Bands: []nl80211.Band{
		{Index: 0, HTCapa: ht, Channels: []nl80211.ChannelInfo{{Freq: 2412}}},
		{Index: 1, HTCapa: ht, VHTCapa: vht, Channels: []nl80211.ChannelInfo{{Freq: 5180}}},
	}}
}

func TestFitPHY(t *testing.T) {
	full := testBands(0x116e|htCapLDPC, 0x0380017e|vhtCap160MHz)
	for _, tt := range []struct {
		name    string
		phy     nl80211.PHY
		freq    int
		in      ap.PHY
		want    ap.PHY
		note    bool
		wantErr string
	}{
		{"legacy is untouched", testBands(0, 0), 2412, ap.PHY{ShortGI: true}, ap.PHY{ShortGI: true}, false, ""},
		{"HT on an HT band", full, 2412, ap.PHY{HT: true, ShortGI: true}, ap.PHY{HT: true, ShortGI: true}, false, ""},
		{"HT without band HT", testBands(0, 0), 2412, ap.PHY{HT: true}, ap.PHY{}, false, "-ht: phy0's band at 2412 MHz has no HT"},
		{"VHT without band VHT", testBands(0x116e, 0), 5180, ap.PHY{HT: true, VHT: true, Width: 80}, ap.PHY{}, false, "-vht: phy0's band at 5180 MHz has no VHT"},
		{"40 MHz on a 20 MHz radio", testBands(0x0060, 0), 2412, ap.PHY{HT: true, Width: 40, Secondary: 1}, ap.PHY{}, false, "supports 20 MHz only"},
		{"160 MHz on an 80 MHz radio", testBands(0x116e, 0x03800032), 5180, ap.PHY{HT: true, VHT: true, Width: 160}, ap.PHY{}, false, "up to 80 MHz"},
		{"160 MHz where declared", full, 5180, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, false, ""},
		{"LDPC asked, not decoded", testBands(0x116e, 0), 2412, ap.PHY{HT: true, LDPC: true}, ap.PHY{}, false, "-ldpc"},
		{"LDPC where declared", full, 5180, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, false, ""},
		{"no SGI at 40 MHz: long GI", testBands(0x0022, 0), 2412, ap.PHY{HT: true, Width: 40, Secondary: 1, ShortGI: true}, ap.PHY{HT: true, Width: 40, Secondary: 1}, true, ""},
		{"no SGI at 80 MHz: long GI", testBands(0x116e, 0x03800002), 5180, ap.PHY{HT: true, VHT: true, Width: 80, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 80}, true, ""},
		{"hwsim's recorded band data, VHT 160", testBands(0x107e, 0x038004fa), 5180, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, false, ""},
		{"hwsim decodes no HT LDPC", testBands(0x107e, 0x038004fa), 5180, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, ap.PHY{}, false, "-ldpc"},
		{"a channel the phy lacks is left to the channel check", full, 5745, ap.PHY{HT: true}, ap.PHY{HT: true}, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, note, err := fitPHY(tt.phy, tt.freq, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want || (note != "") != tt.note {
				t.Fatalf("got %+v note %q err %v, want %+v note %v", got, note, err, tt.want, tt.note)
			}
		})
	}
}
