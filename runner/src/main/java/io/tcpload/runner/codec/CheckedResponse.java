package io.tcpload.runner.codec;

import io.tcpload.runner.correlate.ResponseValues;

/**
 * A complete response of a rule that carries values ({@code rsp_extract}, {@code rsp_echo}): its
 * outcome as the code judged it, and the values it carried, for the connection to settle with what
 * it sent. Fired instead of a bare {@link ResponseOutcome}, so that rules without values allocate
 * nothing per response.
 *
 * @param outcome the code's (and status's) judgement
 * @param values what the response carried
 * @param rule the rule that read them
 */
public record CheckedResponse(
        ResponseOutcome outcome, ResponseValues.Checked values, ResponseValues rule) {}
