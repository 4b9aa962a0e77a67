package main

import (
	"net"

	"github.com/airq/airq/config"
)

// checkBSSNames checks the bss= sections' names against the system's
// network interfaces and airqd's control sockets.
func (o *options) checkBSSNames() error {
	return asError(o.conf.CheckNames(&o.Settings, systemNetdevs{}, o.Control, o.Global))
}

// checkServed refuses what the file configures and airqd does not serve
// yet (config.File.NotServed): the one place the wiring of several BSSes
// and of the airtime policy removes.
func (o *options) checkServed() error { return asError(o.conf.NotServed(&o.Settings)) }

// asError is ps as an error, nil for none.
func asError(ps config.Problems) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// systemNetdevs are the system's network interfaces.
type systemNetdevs struct{}

func (systemNetdevs) Exists(name string) (bool, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return false, err
	}
	for _, i := range ifs {
		if i.Name == name {
			return true, nil
		}
	}
	return false, nil
}
