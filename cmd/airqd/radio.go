package main

import (
	"log/slog"
	"time"

	"github.com/airq/airq/monitor"
	"github.com/airq/airq/scan"
)

// monitorOptions are the radio's settings from the flags and the file.
func (o *options) monitorOptions(log *slog.Logger) monitor.Options {
	cfg := o.Core
	if o.Channel == 0 {
		cfg.ACS = o.acsConfig(nil) // the candidates come from the phy
	}
	cfg.Scan = o.Scan.Config(nil, 0) // the channels and the retune time too
	return monitor.Options{
		Phy: o.Phy, Ifname: o.Ifname, Core: cfg, ACS: o.acsFilter(), HTCapAsked: o.PHY.HTCapAsked,
		VHTCapAsked: o.PHY.VHTCapAsked,
		Country:     o.Country, CountryElement: o.IEEE80211D, Takeover: o.takeover, NoQualify: o.noQualify,
		FullEchoes: o.Pcap != "", AMSDUOptional: !o.amsduGiven(), Log: log,
		OnACSDecision: func(d scan.Decision, took time.Duration) { logDecision(log, d, took) },
		Holder:        monitor.HolderMonitor, // README: why monitors
	}
}
