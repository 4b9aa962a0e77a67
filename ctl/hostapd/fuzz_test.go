package hostapd

import (
	"bytes"
	"testing"
)

// FuzzParse: any datagram parses to a command or ErrFail, never panics,
// and a parsed address is the one the datagram spells.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"PING", "STATUS", "STA-FIRST", "STA 02:00:00:00:01:00", "STA-NEXT 02:00:00:00:01:00",
		"DEAUTHENTICATE 02:00:00:00:01:00 reason=3", "DISASSOCIATE ff:ff:ff:ff:ff:ff", "ATTACH probe_rx_events=1",
		"LEVEL 2", "SET wpa_passphrase secret12", "SA_QUERY 02:00:00:00:01:00", "RELOAD_WPA_PSK", "GET_CONFIG",
		"CHAN_SWITCH 5 5180", "STA 02:00:00:00:01:0\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			if err != ErrFail || c != (Command{}) {
				t.Fatalf("%q: %+v, %v", b, c, err)
			}
			return
		}
		switch c.Kind {
		case STA, STANext, Deauthenticate, Disassociate, SAQuery:
			if !bytes.Contains(bytes.ToLower(b), []byte(c.Addr.String())) {
				t.Fatalf("%q: address %v is not in the datagram", b, c.Addr)
			}
			if (c.Kind == Deauthenticate || c.Kind == Disassociate) && c.Reason == 0 {
				t.Fatalf("%q: reason 0", b)
			}
		case Set:
			if c.Key == "" {
				t.Fatalf("%q: SET without a key", b)
			}
		}
	})
}
