package config

import "testing"

// A SET line goes to the end of its section: the first section's before
// the first bss= line, a section's before the next one, a section the
// file lacks at the end under its own bss= line.
func TestMergeSections(t *testing.T) {
	file := "ssid=main\nchannel=6\nbss=guest\nssid=guest\nbss=iot\nssid=iot"
	for _, c := range []struct{ name, extra, want string }{
		{"none", "", file},
		{"the radio's", "beacon_int=200\n",
			"ssid=main\nchannel=6\nbeacon_int=200\nbss=guest\nssid=guest\nbss=iot\nssid=iot\n"},
		{"guest's and the radio's", "beacon_int=200\nbss=guest\nmax_num_sta=5\nignore_broadcast_ssid=1\n",
			"ssid=main\nchannel=6\nbeacon_int=200\nbss=guest\nssid=guest\nmax_num_sta=5\nignore_broadcast_ssid=1\nbss=iot\nssid=iot\n"},
		{"the last section's", "bss=iot\nmax_num_sta=3",
			"ssid=main\nchannel=6\nbss=guest\nssid=guest\nbss=iot\nssid=iot\nmax_num_sta=3\n"},
		{"a section not in the file", "bss=lab\nssid=lab\n", file + "\nbss=lab\nssid=lab\n"},
	} {
		if got := string(MergeSections([]byte(file), []byte(c.extra))); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
	if got := string(MergeSections(nil, []byte("ssid=a\nbss=b\nssid=b\n"))); got != "ssid=a\nbss=b\nssid=b\n" {
		t.Errorf("no file: %q", got)
	}
}
