{{/* The name part of object names. */}}
{{- define "tcpload-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: RELEASE-NAME, or RELEASE alone when it already holds the name. */}}
{{- define "tcpload-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := include "tcpload-operator.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tcpload-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The labels that select the operator's pods; never change them after a release (immutable). */}}
{{- define "tcpload-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tcpload-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The labels of every object of the chart. */}}
{{- define "tcpload-operator.labels" -}}
{{ include "tcpload-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: tcpload
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ include "tcpload-operator.chart" . }}
{{- end }}

{{- define "tcpload-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tcpload-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* "true" when the operator elects a leader: asked for, or needed by more than one replica. */}}
{{- define "tcpload-operator.leaderElection" -}}
{{- if or .Values.leaderElection.enabled (gt (int .Values.replicas) 1) }}true{{ else }}false{{ end }}
{{- end }}

{{- define "tcpload-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{- define "tcpload-operator.runnerImage" -}}
{{- printf "%s:%s" .Values.runnerImage.repository (.Values.runnerImage.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* The runner defaults as the operator reads them (TCPLOAD_RUNNER_DEFAULTS): JSON of spec.runner's
     fields, the empty ones left out, with runnerImage.pullPolicy as imagePullPolicy. */}}
{{- define "tcpload-operator.runnerDefaults" -}}
{{- $defaults := dict }}
{{- range $key, $value := .Values.runnerDefaults }}
{{- if $value }}
{{- $_ := set $defaults $key $value }}
{{- end }}
{{- end }}
{{- with .Values.runnerImage.pullPolicy }}
{{- $_ := set $defaults "imagePullPolicy" . }}
{{- end }}
{{- toJson $defaults }}
{{- end }}

{{/*
What the operator does with the API, and nothing more: it runs TcpLoadTests (and writes their status
and finalizers), creates and deletes each test's ConfigMap and runner Job, reads the runner pods,
and records events. Shared by the ClusterRole and the per-namespace Roles.
*/}}
{{- define "tcpload-operator.rules" -}}
{{- /* Exactly what the operator calls (RbacUsageIT records it): watches of its tests and of
       what it made (selected by label), writes of its children, status and events, the user's
       ConfigMaps a spec names, read once. */ -}}
- apiGroups: ["tcpload.io"]
  resources: ["tcploadtests"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["tcpload.io"]
  resources: ["tcploadtests/status"]
  verbs: ["patch"]
{{- /* The runners' token Secret: created, never read (the operator derives the token again). */}}
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["create"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["list", "watch", "create", "delete"]
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch", "create", "delete"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["list", "watch"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["list", "watch", "create"]
{{- end }}
