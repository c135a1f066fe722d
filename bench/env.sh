# The machine a benchmark ran on, for bench/vs-fio.sh (sourced): kernel, CPUs, the block
# device under the target folder and its queue, which CPUs take its interrupts, the load,
# and the CPUs a placement name stands for. Read from /proc and /sys only; changes nothing.

# The whole disk under folder $1 (vda for /dev/vda1, or for a device-mapper volume the first
# disk below it), or nothing when the folder is not on a block device.
disk_of() {
	mm=$(findmnt -n -o MAJ:MIN -T "$1" 2>/dev/null | tr -d ' ')
	[ -n "$mm" ] && [ -e "/sys/dev/block/$mm" ] || return 0
	d=$(basename "$(readlink -f "/sys/dev/block/$mm")")
	while [ -n "$(ls "/sys/class/block/$d/slaves" 2>/dev/null)" ]; do
		d=$(ls "/sys/class/block/$d/slaves" | sed -n 1p)
	done
	if [ -e "/sys/class/block/$d/partition" ]; then
		d=$(basename "$(readlink -f "/sys/class/block/$d/..")")
	fi
	echo "$d"
}

# The interrupt numbers of disk $1: its device's MSI vectors (the PCI function above it),
# or the /proc/interrupts lines that name it.
irqs_of() {
	[ -n "$1" ] || return 0
	p=$(readlink -f "/sys/block/$1/device" 2>/dev/null) || return 0
	while [ -n "$p" ] && [ "$p" != / ]; do
		if [ -d "$p/msi_irqs" ]; then
			ls "$p/msi_irqs" | sort -n | tr '\n' ' '
			return 0
		fi
		p=$(dirname "$p")
	done
	awk -v d="$1" '$NF ~ d {sub(/:$/, "", $1); printf "%s ", $1}' /proc/interrupts
}

DISK=$(disk_of "$BENCH_DIR")
IRQS=$(irqs_of "$DISK")
NCPU=$(getconf _NPROCESSORS_ONLN)

# Interrupts per CPU summed over the disk's IRQs: "n0 n1 ..." (one field per CPU).
irq_counts() {
	awk -v irqs=" $IRQS " -v n="$NCPU" 'NR > 1 {
		i = $1; sub(/:$/, "", i)
		if (index(irqs, " " i " "))
			for (c = 0; c < n; c++)
				sum[c] += $(c + 2)
	} END {for (c = 0; c < n; c++) printf "%d%s", sum[c], (c < n - 1 ? " " : "\n")}' /proc/interrupts
}

# "CPU0 12, CPU1 345" from two irq_counts lines.
irq_delta() {
	[ -n "$IRQS" ] || { echo "unknown (no interrupt found for the disk)"; return 0; }
	echo "$1 | $2" | awk '{n = (NF - 1) / 2; for (c = 0; c < n; c++) printf "%sCPU%d %d", (c ? ", " : ""), c, $(n + 2 + c) - $(c + 1); print ""}'
}

# The CPUs (a taskset list) that took the most of the disk's interrupts so far: those with at
# least a tenth of them. Empty when unknown.
irq_cpus() {
	[ -n "$IRQS" ] || return 0
	irq_counts | awk '{for (c = 1; c <= NF; c++) t += $c; for (c = 1; c <= NF; c++) if (t > 0 && $c * 10 >= t) printf "%s%d", (n++ ? "," : ""), c - 1; print ""}'
}

# The CPU list that placement $1 stands for: irq, other, none, or a list itself.
placement_cpus() {
	case $1 in
	none) echo "" ;;
	irq) irq_cpus ;;
	other)
		i=",$(irq_cpus),"
		c=0
		l=""
		while [ $c -lt "$NCPU" ]; do
			case $i in *",$c,"*) ;; *) l="$l${l:+,}$c" ;; esac
			c=$((c + 1))
		done
		echo "$l"
		;;
	*) echo "$1" ;;
	esac
}

placement_says() {
	c=$(placement_cpus "$1")
	if [ -z "$c" ] && [ "$1" != none ]; then
		echo "both tools unpinned: no CPU found for '$1' (the disk's interrupts were not found, or every CPU takes them)"
		return 0
	fi
	case $1 in
	none) echo "both tools unpinned (the scheduler places them)" ;;
	irq) echo "both tools' I/O on CPU $c (iotrial: taskset -c; fio: cpus_allowed), the CPU(s) that take the disk's interrupts" ;;
	other) echo "both tools' I/O on CPU $c (iotrial: taskset -c; fio: cpus_allowed), away from the disk's interrupts" ;;
	*) echo "both tools' I/O on CPU $c (iotrial: taskset -c; fio: cpus_allowed)" ;;
	esac
}

# The disk's model, or when it has none (virtio) its driver.
disk_model() {
	if [ -r "/sys/block/$1/device/model" ]; then
		echo "model $(sed 's/ *$//' "/sys/block/$1/device/model")"
	elif [ -e "/sys/block/$1/device/driver" ]; then
		echo "driver $(basename "$(readlink -f "/sys/block/$1/device/driver")")"
	elif [ -e "/sys/block/$1/device/device/driver" ]; then
		echo "driver $(basename "$(readlink -f "/sys/block/$1/device/device/driver")")"
	else
		echo "model unknown"
	fi
}

load_now() { echo "$(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min), $NCPU CPUs"; }

# The header: what ran, on what, against what disk.
env_header() {
	echo "kernel: $(uname -sr); CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p), $NCPU online"
	echo "tools: $(fio --version), $("$IOTRIAL" --version)"
	if [ -z "$DISK" ]; then
		echo "target: $1, on no block device ($(findmnt -n -o FSTYPE -T "$1" 2>/dev/null))"
		return 0
	fi
	q=/sys/block/$DISK/queue
	echo "target: $1 on /dev/$DISK ($(findmnt -n -o FSTYPE -T "$1")): $(disk_model "$DISK"); scheduler $(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler"), $(ls -d "/sys/block/$DISK/mq/"* 2>/dev/null | wc -l) hardware queue(s), nr_requests $(cat "$q/nr_requests"), rotational $(cat "$q/rotational"), rq_affinity $(cat "$q/rq_affinity")"
	if [ -z "$IRQS" ]; then
		echo "interrupts of /dev/$DISK: not found"
		return 0
	fi
	for i in $IRQS; do
		awk -v i="$i" -v n="$NCPU" '{k = $1; sub(/:$/, "", k)} k == i {
			name = $(n + 2); for (f = n + 3; f <= NF; f++) name = name " " $f
			t = 0; for (c = 0; c < n; c++) t += $(c + 2)
			if (t == 0) exit
			printf "interrupts of /dev/%s: irq %s (%s):", d, i, name
			for (c = 0; c < n; c++) printf " CPU%d %d", c, $(c + 2)
			printf "; effective affinity %s\n", aff
		}' d="$DISK" aff="$(cat "/proc/irq/$i/effective_affinity_list" 2>/dev/null || echo unknown)" /proc/interrupts
	done
	echo "completion CPU(s) of /dev/$DISK (the most of its interrupts so far): ${IRQCPUS:-$(irq_cpus)}"
}
