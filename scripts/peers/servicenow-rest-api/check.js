// Calls every function of the npm client servicenow-rest-api (ChaitanyaKaranam/servicenow-rest-api) against
// `nowflow serve --tls`, the way its README does, and prints one line per check and 'N passed, N failed'.
//
//   NODE_PATH=/usr/share/nodejs NODE_EXTRA_CA_CERTS=CA node check.js CHECKOUT HOST:PORT PASSWORD
//
// The client forces https:// and takes the instance as a host name when it holds a dot (127.0.0.1:PORT does).
'use strict';
const path = require('path');
const axios = require('axios');
const [checkout, host, password] = process.argv.slice(2);
const ServiceNow = require(path.resolve(checkout, 'servicenow.js'));
const sn = new ServiceNow(host, 'admin', password);

let passed = 0;
let failed = 0;
function report(name, ok, why) {
    if (ok) passed += 1; else failed += 1;
    console.log(`${name.padEnd(48)} ${ok ? 'passed' : `FAILED: ${why}`}`);
}
// The client's functions answer through a callback, with the result or with axios's error.
function call(fn, ...args) {
    return new Promise(resolve => fn.call(sn, ...args, resolve));
}
function why(value) {
    if (value && value.isAxiosError) {
        return `${value.response ? value.response.status : ''} ${JSON.stringify(value.response ? value.response.data : value.message)}`;
    }
    return JSON.stringify(value).slice(0, 300);
}
async function check(name, body) {
    try {
        const [ok, detail] = await body();
        report(name, ok, detail);
    } catch (error) {
        report(name, false, error && error.stack ? error.stack.split('\n')[0] : String(error));
    }
}

async function main() {
    // Authenticate only logs: 'Authenticated', or the error.
    await check('Authenticate', async () => {
        const lines = [];
        const log = console.log;
        console.log = (...args) => lines.push(args.map(String).join(' '));
        try {
            sn.Authenticate();
            for (let i = 0; i < 100 && lines.length === 0; i += 1) await new Promise(r => setTimeout(r, 100));
        } finally {
            console.log = log;
        }
        return [lines[0] === 'Authenticated', lines.join(' ').slice(0, 300)];
    });

    await check('getSampleData incident', async () => {
        const result = await call(sn.getSampleData, 'incident');
        return [Array.isArray(result) && result.length === 1 && /^INC/.test(result[0].number), why(result)];
    });

    // README example 2: an emergency change, references and choices given by display value.
    let change;
    await check('createNewTask change_request (README 2)', async () => {
        change = await call(sn.createNewTask, {
            short_description: 'Reboot Server', priority: '1', risk: 'High', type: 'Emergency',
            assignment_group: 'Hardware',
        }, 'change_request');
        return [/^CHG/.test(change.number) && change.type === 'Emergency' && change.risk === 'High'
            && change.assignment_group && change.assignment_group.display_value === 'Hardware', why(change)];
    });

    let incident;
    await check('createNewTask incident', async () => {
        incident = await call(sn.createNewTask, {
            short_description: 'Printer on fire', caller_id: 'Abel Tuter', urgency: '1 - High', impact: '1 - High',
        }, 'incident');
        return [/^INC/.test(incident.number) && incident.caller_id.display_value === 'Abel Tuter'
            && incident.priority === '1 - Critical', why(incident)];
    });

    await check('getSysId', async () => {
        const sysID = await call(sn.getSysId, 'incident', incident.number);
        return [typeof sysID === 'string' && sysID.length === 32, why(sysID)];
    });

    await check('getTableData with fields and filters', async () => {
        const result = await quietly(() => call(sn.getTableData, ['number', 'short_description', 'caller_id'],
            [`number=${incident.number}`, 'active=true'], 'incident'));
        const record = result[0] || {};
        return [result.length === 1 && Object.keys(record).sort().join() === 'caller_id,number,short_description'
            && record.caller_id.display_value === 'Abel Tuter'
            && /\/api\/now\/v2\/table\/sys_user\/[0-9a-f]{32}$/.test(record.caller_id.link), why(result)];
    });

    // README example 1: critical incidents in progress, opened in the last six months.
    await check('getTableData (README 1)', async () => {
        const result = await quietly(() => call(sn.getTableData,
            ['number', 'short_description', 'assignment_group', 'assigned_to'],
            ['priority=1', 'state=2',
                'opened_atONLast 6 months@javascript:gs.beginningOfLast6Months()@javascript:gs.endOfLast6Months()'],
            'incident'));
        return [Array.isArray(result), why(result)];
    });

    // README example 3: elevate the priority.
    await check('UpdateTask (README 3)', async () => {
        const result = await call(sn.UpdateTask, 'incident', incident.number, {
            urgency: '1 - High', impact: '1 - High', state: 'In Progress', work_notes: 'Elevated',
        });
        return [result.state === 'In Progress' && result.number === incident.number, why(result)];
    });

    let changeTask;
    await check('createNewTask change_task', async () => {
        changeTask = await call(sn.createNewTask, {
            short_description: 'Stop the service', change_request: change.number,
        }, 'change_task');
        return [/^CTASK/.test(changeTask.number) && changeTask.change_request.display_value === change.number,
            why(changeTask)];
    });

    await check('getChangeTasks by change number', async () => {
        const result = await call(sn.getChangeTasks, 'change_task', change.number);
        return [Array.isArray(result) && result.length === 1 && result[0].number === changeTask.number,
            why(result)];
    });

    // The client reads attachments; one is uploaded with axios itself.
    let attachment;
    await check('an attachment uploaded (axios)', async () => {
        const sysID = await call(sn.getSysId, 'incident', incident.number);
        const response = await axios.post(`https://${host}/api/now/attachment/file`, 'fire!\n', {
            params: { table_name: 'incident', table_sys_id: sysID, file_name: 'fire.txt' },
            headers: { 'Content-Type': 'text/plain' }, auth: { username: 'admin', password },
        });
        attachment = response.data.result;
        return [response.status === 201, why(response.data)];
    });

    await check('getAllAttachmentsMetaData', async () => {
        const result = await call(sn.getAllAttachmentsMetaData, attachment.table_sys_id);
        return [Array.isArray(result) && result.length === 1 && result[0].file_name === 'fire.txt', why(result)];
    });

    await check('getAttachmentMetaData', async () => {
        const result = await call(sn.getAttachmentMetaData, attachment.sys_id);
        return [result.file_name === 'fire.txt' && result.size_bytes === '6', why(result)];
    });

    await check('getAttachment', async () => {
        const response = await call(sn.getAttachment, attachment.sys_id);
        return [response.status === 200 && response.data === 'fire!\n', why(response.data || response)];
    });

    await check('DeleteTask', async () => {
        const result = await call(sn.DeleteTask, 'incident', incident.number);
        return [result.status === 204, why(result.status || result)];
    });

    await check('getSysId of the deleted incident fails', async () => {
        const result = await call(sn.getSysId, 'incident', incident.number);
        return [result instanceof TypeError, why(result)];
    });

    await check('a wrong password is refused', async () => {
        const wrong = new ServiceNow(host, 'admin', 'wrong-password');
        const result = await new Promise(resolve => wrong.getSampleData('incident', resolve));
        return [result.isAxiosError && result.response.status === 401, why(result)];
    });

    // setNetworkOptions replaces the client's axios by axios.create(options): a timeout, and the CA from Node's own
    // options rather than NODE_EXTRA_CA_CERTS (the https agent).
    await check('setNetworkOptions', async () => {
        sn.setNetworkOptions({ timeout: 5000 });
        const result = await call(sn.getSampleData, 'sys_user');
        return [Array.isArray(result) && result.length === 1, why(result)];
    });

    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed === 0 ? 0 : 1;
}

// getTableData logs the URL it reads; keep the report to one line per check.
async function quietly(body) {
    const log = console.log;
    console.log = () => {};
    try {
        return await body();
    } finally {
        console.log = log;
    }
}

main();
