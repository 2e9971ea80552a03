/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libstripeplan: every public header of the core, for code outside this
 * tree.  A source in the tree includes the header of each area it uses
 * (planner/AREA/NAME.h, ARCHITECTURE.md lists them), so a change to one
 * area rebuilds only what depends on it.
 *
 * Data flows one way: spec (what the user asked) + facts (what the device
 * is) -> plan (pure computation) -> steps (apply/verify) -> report.
 *
 * Library functions return 0 or -errno and describe failures in a
 * struct sp_error; they never print and never exit.  Out-parameters are
 * written only on success.  Units are part of every name.
 */
#ifndef STRIPEPLAN_H
#define STRIPEPLAN_H

#include "array/facts.h"
#include "array/md.h"
#include "array/profile.h"
#include "array/recognise.h"
#include "audit/audit.h"
#include "audit/result.h"
#include "base/base.h"
#include "base/devname.h"
#include "base/error.h"
#include "base/units.h"
#include "fstab/fstab.h"
#include "fstab/line.h"
#include "fstab/mount-options.h"
#include "fstab/mountpoint.h"
#include "kernel/kernel.h"
#include "kernel/knob.h"
#include "limits/limit.h"
#include "ondisk/ondisk.h"
#include "plan/plan.h"
#include "plan/spec.h"
#include "plan/xfs-geometry.h"
#include "raid/cost.h"
#include "raid/model.h"
#include "raid/raid.h"
#include "render/template.h"
#include "render/tuning-files.h"
#include "schema/objects.h"

#endif
