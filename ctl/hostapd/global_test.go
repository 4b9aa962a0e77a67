package hostapd

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseGlobal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want GlobalCommand
		err  error
	}{
		{"PING", GlobalCommand{Kind: GlobalPing}, nil},
		{"RELOG", GlobalCommand{Kind: GlobalRelog}, nil},
		{"FLUSH", GlobalCommand{Kind: GlobalFlush}, nil},
		{"ADD bss_config=phy0:/etc/hostapd/wlan0.conf", GlobalCommand{Kind: GlobalAdd, Phy: "phy0", File: "/etc/hostapd/wlan0.conf"}, nil},
		{"ADD bss_config=phy0", GlobalCommand{}, ErrFail},
		{"ADD bss_config=phy0:", GlobalCommand{}, ErrFail},
		{"ADD bss_config=:x.conf", GlobalCommand{}, ErrFail},
		{"ADD wlan0 config=/tmp/a.conf", GlobalCommand{Kind: GlobalAdd, Iface: "wlan0", File: "/tmp/a.conf"}, nil},
		{"ADD wlan0 /var/run/hostapd", GlobalCommand{Kind: GlobalAdd, Iface: "wlan0", CtrlDir: "/var/run/hostapd"}, nil},
		{"ADD wlan0 /var/run/hostapd nl80211", GlobalCommand{Kind: GlobalAdd, Iface: "wlan0", CtrlDir: "/var/run/hostapd", Driver: "nl80211"}, nil},
		{"ADD wlan0", GlobalCommand{}, ErrFail},
		{"REMOVE wlan0", GlobalCommand{Kind: GlobalRemove, Iface: "wlan0"}, nil},
		{"ATTACH", GlobalCommand{Kind: GlobalAttach}, nil},
		{"DETACH", GlobalCommand{Kind: GlobalDetach}, nil},
		{"INTERFACES", GlobalCommand{Kind: GlobalInterfaces}, nil},
		{"INTERFACES ctrl", GlobalCommand{Kind: GlobalInterfaces, Ctrl: true}, nil},
		{"IFNAME=wlan0 STATUS", GlobalCommand{Kind: GlobalIfname, Iface: "wlan0", Command: []byte("STATUS")}, nil},
		{"IFNAME=wlan0", GlobalCommand{}, nil},
		{"STATUS", GlobalCommand{}, nil},
	} {
		got, err := ParseGlobal([]byte(c.in))
		if !errors.Is(err, c.err) || err == nil && !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseGlobal(%q) = %+v, %v; want %+v, %v", c.in, got, err, c.want, c.err)
		}
	}
	if got := string(AppendInterfaces(nil, []string{"wlan0", "wlan1"}, []string{"/run/hostapd", ""}, true)); got !=
		"wlan0 ctrl_iface=/run/hostapd\nwlan1 ctrl_iface=N/A\n" {
		t.Errorf("INTERFACES ctrl: %q", got)
	}
}

func FuzzParseGlobal(f *testing.F) {
	for _, s := range []string{"PING", "ADD bss_config=phy0:/x.conf", "ADD wlan0 config=/x.conf", "ADD wlan0 /run/hostapd nl80211",
		"REMOVE wlan0", "IFNAME=wlan0 STA-FIRST", "INTERFACES ctrl"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseGlobal(b)
		if err != nil {
			return
		}
		if c.Kind == GlobalAdd && c.Iface == "" && (c.Phy == "" || c.File == "") {
			t.Fatalf("%q: ADD without a target: %+v", b, c)
		}
	})
}
