package io.tcpload.operator.children;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;

/** Specs and tests for the operator's tests. */
public final class Specs {
    /** A banking-style profile with a COUNTER and a CONNECTID, as the quickstart's. */
    public static final String PROFILE =
            String.join(
                    "\n",
                    "[common]",
                    "host = 127.0.0.1",
                    "port = 18101",
                    "[request]",
                    "req_head = $(length)",
                    "req_body = <req><trace>$(TRACE)</trace><term>$(TERM)</term></req>",
                    "[response]",
                    "rsp_code_type = xml",
                    "rsp_code_location_tag = <retCode>",
                    "rsp_code_success = 000000",
                    "[parameters]",
                    "TRACE = COUNTER, 1, 999, 1, %03ld",
                    "TERM = CONNECTID, %07ld",
                    "");

    private Specs() {}

    /** A valid spec: the profile above, 2 threads, 10 connections, 30 seconds. */
    public static TcpLoadTestSpec valid() {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(PROFILE);
        spec.setThreads(2);
        spec.setConnections(10);
        spec.setDuration("30s");
        return spec;
    }

    public static TcpLoadTest test(String name, TcpLoadTestSpec spec) {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(
                new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace("load")
                        .withUid("0b5f4c1e-uid")
                        .withGeneration(1L)
                        .build());
        test.setSpec(spec);
        return test;
    }
}
