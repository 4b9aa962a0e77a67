package hostapd

import (
	"errors"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

var sta = ieee80211.MAC{2, 0, 0, 0, 1, 0}

// The commands as hostapd 2.10's hostapd_ctrl_iface_receive_process
// matches them.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Command
		err  error
	}{
		{"PING", Command{Kind: Ping, ProbeEvents: -1}, nil},
		{"PING ", Command{}, nil}, // exact: unknown
		{"PING\n", Command{}, nil},
		{"ping", Command{}, nil},
		{"STATUS", Command{Kind: Status, ProbeEvents: -1}, nil},
		{"STATUS-DRIVER", Command{}, nil},
		{"STA-FIRST", Command{Kind: STAFirst, ProbeEvents: -1}, nil},
		{"STA 02:00:00:00:01:00", Command{Kind: STA, Addr: sta, ProbeEvents: -1}, nil},
		{"STA 02:00:00:00:01:00 eapol", Command{}, ErrFail},
		{"STA 02:00:00:00:01", Command{}, ErrFail},
		{"STA 02-00-00-00-01-00", Command{}, ErrFail},
		{"STA-NEXT 02:00:00:00:01:00", Command{Kind: STANext, Addr: sta, ProbeEvents: -1}, nil},
		{"STA-NEXT zz", Command{}, ErrFail},
		{"ATTACH", Command{Kind: Attach, ProbeEvents: -1}, nil},
		{"ATTACH probe_rx_events=1", Command{Kind: Attach, ProbeEvents: 1}, nil},
		{"ATTACH probe_rx_events=2", Command{}, ErrFail},
		{"ATTACH junk", Command{}, ErrFail},
		{"DETACH", Command{Kind: Detach, ProbeEvents: -1}, nil},
		{"LEVEL 2", Command{Kind: Level, Level: 2, ProbeEvents: -1}, nil},
		{"LEVEL x", Command{Kind: Level, ProbeEvents: -1}, nil}, // atoi
		{"DEAUTHENTICATE 02:00:00:00:01:00", Command{Kind: Deauthenticate, Addr: sta, Reason: 2, ProbeEvents: -1}, nil},
		{"DEAUTHENTICATE 02:00:00:00:01:00 reason=8", Command{Kind: Deauthenticate, Addr: sta, Reason: 8, ProbeEvents: -1}, nil},
		{"DEAUTHENTICATE 02:00:00:00:01:00 reason=0", Command{}, ErrFail},
		{"DEAUTHENTICATE 02:00:00:00:01:00 reason=65536", Command{}, ErrFail},
		{"DEAUTHENTICATE 02:00:00:00:01:00 reason=99999999999", Command{}, ErrFail},
		{"DEAUTHENTICATE 02:00:00:00:01:00 test=0", Command{}, ErrFail},
		{"DEAUTHENTICATE 02:00:00:00:01:00 tx=0", Command{}, ErrFail},
		{"DEAUTHENTICATE", Command{}, nil}, // no space: not the command
		{"DISASSOCIATE 02:00:00:00:01:00 reason=3", Command{Kind: Disassociate, Addr: sta, Reason: 3, ProbeEvents: -1}, nil},
		{"SA_QUERY 02:00:00:00:01:00", Command{Kind: SAQuery, Addr: sta, ProbeEvents: -1}, nil},
		{"GET_CONFIG", Command{Kind: GetConfig, ProbeEvents: -1}, nil},
		{"SET wpa_passphrase a b c", Command{Kind: Set, Key: "wpa_passphrase", Value: "a b c", ProbeEvents: -1}, nil},
		{"SET ssid", Command{}, ErrFail},
		{"SET  x", Command{}, ErrFail},
		{"ENABLE", Command{Kind: Enable}, nil},
		{"ENABLEx", Command{Kind: Enable}, nil}, // a prefix, as hostapd's
		{"DISABLE", Command{Kind: Disable}, nil},
		{"RELOAD", Command{Kind: Reload}, nil},
		{"RELOAD_WPA_PSK", Command{Kind: ReloadWPAPSK, ProbeEvents: -1}, nil},
		{"RELOAD_WPA_PSKx", Command{Kind: Reload}, nil},
		{"RELOG", Command{Kind: Relog}, nil},
		{"CHAN_SWITCH 5 2437", Command{Kind: ChanSwitch, ProbeEvents: -1}, nil},
		{"PING\x00garbage", Command{Kind: Ping, ProbeEvents: -1}, nil},
		{"", Command{}, nil},
		{strings.Repeat("A", MaxRequest+1), Command{}, ErrFail},
	} {
		got, err := Parse([]byte(c.in))
		if !errors.Is(err, c.err) || err == nil && got != c.want {
			t.Errorf("Parse(%.40q) = %+v, %v; want %+v, %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestAtoi(t *testing.T) {
	for in, want := range map[string]int{"12": 12, " 7x": 7, "-3": -3, "+4": 4, "": 0, "x": 0, "99999999999": 1<<31 - 1} {
		if got := atoi(in); got != want {
			t.Errorf("atoi(%q) = %d, want %d", in, got, want)
		}
	}
}
