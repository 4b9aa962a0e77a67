package inject

// ifRxPackets reads the interface's rx_packets from rtnetlink through the
// socket opened with the device, in the interface's network namespace
// (sysfs may show another one's). It allocates nothing: the shell asks
// once a second.
func (d *Device) ifRxPackets() (uint64, bool) {
	if d.ifStats == nil {
		return 0, false
	}
	c, err := d.ifStats.Read(d.ifindex)
	return c.RxPackets, err == nil
}

func (d *Device) closeIfStats() error {
	if d.ifStats == nil {
		return nil
	}
	return d.ifStats.Close()
}
