package io.tcpload.operator.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A TCP load test run once on one or more runner pods: {@code kubectl get tlt} lists them with
 * their phase, throughput and latency. (The generator orders printer columns by JSON path, so Age
 * comes first.) The CRD is generated from this class and its spec and status types; nothing else
 * defines it.
 */
@Group(TcpLoadTest.GROUP)
@Version(TcpLoadTest.VERSION)
@ShortNames("tlt")
@Plural("tcploadtests")
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(value = SpecRules.HAS_SPEC, message = SpecRules.HAS_SPEC_MESSAGE)
@ValidationRule(value = SpecRules.NAME_HAS_NO_DOT, message = SpecRules.NAME_HAS_NO_DOT_MESSAGE)
@ValidationRule(value = SpecRules.NAME_LENGTH, message = SpecRules.NAME_LENGTH_MESSAGE)
public class TcpLoadTest extends CustomResource<TcpLoadTestSpec, TcpLoadTestStatus>
        implements Namespaced {
    private static final long serialVersionUID = 1L;

    public static final String GROUP = "tcpload.io";
    public static final String VERSION = "v1alpha1";
}
