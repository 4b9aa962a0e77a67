package nl80211test

import (
	"errors"
	"testing"

	"github.com/airq/airq/nl80211"
	"golang.org/x/sys/unix"
)

func TestKernel(t *testing.T) {
	k := &Kernel{Refuse: func(r Request) unix.Errno {
		if r.Name == "mon0.3" {
			return unix.EBUSY
		}
		return 0
	}}
	c, err := Dial(k)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mon, err := c.NewMonitor(1, "mon0.2", [6]byte{2, 0, 0, 0, 0, 1}, nl80211.MonitorActive)
	if err != nil {
		t.Fatal(err)
	}
	sta, err := c.NewStation(1, "sta0", [6]byte{2, 0, 0, 0, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if mon.Index == sta.Index || mon.Type != nl80211.IfTypeMonitor || sta.Type != nl80211.IfTypeStation || sta.Addr[5] != 2 || sta.PHY != 1 {
		t.Errorf("replies %+v %+v", mon, sta)
	}
	if _, err := c.NewMonitor(1, "mon0.3", [6]byte{2}, nl80211.MonitorActive); !errors.Is(err, unix.EBUSY) {
		t.Errorf("refused interface: err = %v, want EBUSY", err)
	}
	if err := c.DelInterface(mon.Index); err != nil {
		t.Fatal(err)
	}
	cr := k.Created()
	if len(cr) != 2 || !cr[0].Active || cr[1].Active || cr[1].Name != "sta0" {
		t.Errorf("created %+v", cr)
	}
	if d := k.Deleted(); len(d) != 1 || d[0] != mon.Index {
		t.Errorf("deleted %v", d)
	}
}
