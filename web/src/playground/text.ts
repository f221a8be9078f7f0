// The playground's interface texts in English and Chinese (the book's terms for the states and
// the protocol, docs/src/glossary.md).

import type { Lang } from '../common/i18n.ts';
import { clipped } from '../common/quote.ts';

const T = {
  product: { en: 'Kafka group coordinator', zh: 'Kafka 消费组协调者' },
  documentTitle: { en: 'Kafka consumer-group coordinator playground', zh: 'Kafka 消费组协调者演练场' },
  /** After the version number in Chinese (in English the model's own version line is shown). */
  versionWords: { en: '', zh: '（Kafka 消费组协调者：经典消费组与 consumer 消费组，4.0 行为；可切换为 3.x）' },
  modes: { en: 'Mode', zh: '模式' },
  playground: { en: 'Playground', zh: '演练场' },
  console: { en: 'Protocol console', zh: '协议控制台' },
  book: { en: 'Book', zh: '文档' },
  assigners: { en: 'Assignors', zh: '分区分配器' },
  // (Partitions that are new to the member that now has them, not members that are new.)
  requestsN: { en: '{n} requests', zh: '{n} 个请求' },
  scenario: { en: 'Scenario', zh: '场景' },
  liveEdge: { en: 'the live edge', zh: '实时最新处' },
  stopFollowing: { en: 'Stop following (keep the run)', zh: '停止跟随（保留这次运行）' },
  stopReaching: { en: 'Stop here', zh: '停在这里' },
  liveNoShare: {
    en: 'A live run has no share link (its inputs came from your broker): export it as JSON or HTML instead, and open the file here.',
    zh: '实况运行没有分享链接（它的输入来自你的 broker）：请导出为 JSON 或 HTML，再在这里打开该文件。',
  },
  restart: { en: 'Restart', zh: '重新开始' },
  back: { en: 'Step back', zh: '后退一步' },
  step: { en: 'Step', zh: '前进一步' },
  play: { en: 'Play', zh: '播放' },
  pause: { en: 'Pause', zh: '暂停' },
  speed: { en: 'Speed', zh: '速度' },
  time: { en: 'Time', zh: '时间' },
  stepN: { en: 'step', zh: '步' },
  stateMachine: { en: 'Group state machine', zh: '消费组状态机' },
  consumerStateMachine: { en: 'Consumer group state machine (KIP-848)', zh: '消费组状态机（KIP-848）' },
  groupEpoch: { en: 'Group epoch', zh: '组纪元' },
  rowsShown: { en: 'Rows {from}–{to} of {total}', zh: '第 {from}–{to} 行，共 {total} 行' },
  rowsBefore: { en: 'The {n} rows before', zh: '前 {n} 行' },
  rowsAfter: { en: 'The next {n} rows', zh: '后 {n} 行' },
  memberStates: { en: 'Members’ own state machines (client side)', zh: '成员自身的状态机（客户端）' },
  classicTag: { en: '(classic)', zh: '（经典）' },
  classicMemberHint: {
    en: 'speaks the classic protocol inside the consumer group: JoinGroup, SyncGroup and Heartbeat, with its own session timeout',
    zh: '在新协议消费组中使用经典协议：JoinGroup、SyncGroup、Heartbeat，会话超时为其自身的设置',
  },
  classicClients: { en: 'speaking the classic protocol', zh: '使用经典协议' },
  consumerClients: { en: 'speaking the consumer protocol (KIP-848)', zh: '使用 consumer 协议（KIP-848）' },
  assignmentEpoch: { en: 'Target assignment epoch', zh: '目标分配纪元' },
  serverAssignor: { en: 'Server assignor', zh: '服务端分配器' },
  timeouts: { en: 'Timeouts', zh: '超时' },
  memberEpoch: { en: 'epoch', zh: '纪元' },
  epochOf: { en: '(epoch {n})', zh: '（纪元 {n}）' },
  pendingRevocation: { en: 'revoking', zh: '撤销中' },
  targetOf: { en: 'target', zh: '目标' },
  timeline: { en: 'Timeline', zh: '时间线' },
  assignments: { en: 'Partition assignment', zh: '分区分配' },
  stepTable: { en: 'Steps', zh: '步骤表' },
  generation: { en: 'Generation', zh: '代' },
  leader: { en: 'Leader', zh: '主消费者' },
  members: { en: 'Members', zh: '成员' },
  delayed: { en: 'Delayed operations', zh: '延迟操作' },
  none: { en: 'none', zh: '无' },
  actor: { en: 'Actor', zh: '执行者' },
  what: { en: 'Request or timer', zh: '请求或定时器' },
  stateAfter: { en: 'Group state after', zh: '之后的消费组状态' },
  coordinator: { en: 'coordinator', zh: '协调者' },
  consumers: { en: 'Consumers', zh: '消费者' },
  consumer: { en: 'Consumer', zh: '消费者' },
  close: { en: 'Close', zh: '关闭' },
  crash: { en: 'Crash', zh: '崩溃' },
  start: { en: 'Start', zh: '启动' },
  pauseC: { en: 'Pause', zh: '暂停' },
  resume: { en: 'Resume', zh: '恢复' },
  cut: { en: 'Cut link', zh: '断开网络' },
  heal: { en: 'Heal link', zh: '恢复网络' },
  addConsumer: { en: 'Add consumer', zh: '添加消费者' },
  failover: { en: 'Coordinator failover', zh: '协调者故障转移' },
  addPartition: { en: '+1 partition to {topic} ({n})', zh: '为 {topic} 加 1 个分区（现有 {n} 个）' },
  addPartitionHint: {
    en: 'An admin adds one partition to the topic (CreatePartitions): a consumer group sees it at its next heartbeat, a classic group when its leader refreshes its metadata (metadata.max.age.ms)',
    zh: '管理员为该主题增加一个分区（CreatePartitions）：新协议消费组在下一次心跳时看到；经典组要等领导者刷新元数据（metadata.max.age.ms）',
  },
  createTopic: { en: 'Create topic', zh: '创建主题' },
  createTopicName: { en: 'New topic', zh: '新主题' },
  createTopicPartitions: { en: 'partitions', zh: '分区数' },
  createTopicHint: {
    en: 'An admin creates a topic (CreateTopics): consumers that subscribe by pattern pick it up if it matches, a consumer group when the coordinator resolves its pattern again, a classic consumer at its next metadata refresh (metadata.max.age.ms)',
    zh: '管理员创建一个主题（CreateTopics）：按模式订阅的消费者若匹配就会拿到它；新协议消费组在协调者重新解析模式时，经典消费者在下一次刷新元数据（metadata.max.age.ms）时',
  },
  static: { en: 'static', zh: '静态' },
  consumerSettings: { en: "This consumer's settings (Kafka property names)", zh: '该消费者的设置（Kafka 属性名）' },
  metrics: { en: 'Metrics', zh: '指标' },
  notSettled: { en: 'not settled', zh: '未稳定' },
  metricsHint: { en: 'Hover a metric for what it measures.', zh: '将鼠标悬停在指标上可查看其含义。' },
  help: { en: 'Keyboard', zh: '键盘' },
  end: { en: 'end of the scenario', zh: '场景结束' },
  maxSpeed: { en: 'max', zh: '最快' },
  otherLang: { en: '中文', zh: 'English' },
  switchLang: { en: 'Switch to Chinese', zh: '切换到英文' },
  share: { en: 'Share link', zh: '分享链接' },
  exportJson: { en: 'Export JSON', zh: '导出 JSON' },
  exportHtml: { en: 'Export HTML', zh: '导出 HTML' },
  importJson: { en: 'Open a file…', zh: '打开文件…' },
  importRun: { en: 'Open an exported run (JSON) or a group-broker trace', zh: '打开导出的运行（JSON）或 group-broker 的运行记录' },
  stepSlider: { en: 'Step', zh: '步' },
  now: { en: 'now', zh: '当前' },
  network: { en: 'network', zh: '网络' },
  youOrScript: { en: 'you / script', zh: '用户/脚本' },
  scenarioActor: { en: 'scenario', zh: '场景' },
  gotoStep: { en: 'go to this step', zh: '跳到此步' },
  gotoStepN: { en: 'Go to step {n}', zh: '跳到第 {n} 步' },
  followStep: { en: 'Follow the current step', zh: '跟随当前步' },
  timelineWindow: { en: 'Timeline window', zh: '时间线窗口' },
  timedOut: { en: 'timed out', zh: '超时' },
  lost: { en: 'lost', zh: '丢失' },
  ownership: { en: 'Partition ownership over time', zh: '分区归属随时间变化' },
  twoOwners: { en: 'two owners', zh: '两个所有者' },
  unownedKey: { en: 'unowned', zh: '无人消费' },
  settings: { en: 'Settings (Kafka property names)', zh: '设置（Kafka 属性名）' },
  settingsHint: {
    en: 'Empty = the default shown. Applying restarts the run with these settings; share links carry the changes.',
    zh: '留空 = 使用显示的默认值。应用后以这些设置重新开始；分享链接会带上这些修改。',
  },
  brokerSettings: { en: 'Broker (group coordinator)', zh: 'Broker（消费组协调者）' },
  groupSettings: {
    en: 'Group {group}’s own configs (KIP-848; consumer protocol)',
    zh: '消费组 {group} 自己的配置（KIP-848；consumer 协议）',
  },
  everyConsumer: { en: "Every consumer (each consumer's own settings still apply)", zh: '所有消费者（各消费者自己的设置仍然生效）' },
  staticAll: {
    en: 'Static membership for every consumer (group.instance.id = its name)',
    zh: '所有消费者使用静态成员（group.instance.id = 名字）',
  },
  oneConsumer: { en: 'One consumer', zh: '单个消费者' },
  consumerPick: { en: 'consumer', zh: '消费者' },
  staticOne: { en: 'Static membership (group.instance.id = its name)', zh: '静态成员（group.instance.id = 名字）' },
  networkAndSeed: { en: 'Network and seed', zh: '网络与随机种子' },
  applySettings: { en: 'Apply and restart the run', zh: '应用并重新开始' },
  resetSettings: { en: "Back to the scenario's settings", zh: '恢复场景设置' },
  noDefault: { en: '(none)', zh: '（无）' },
  compare: { en: 'Compare configurations', zh: '比较配置' },
  ygTitle: { en: 'Your group: what would a change cost it?', zh: '你的消费组：一次变更要付出什么代价？' },
  ygHint: {
    en: "Paste what kafka-consumer-groups.sh --describe --group G --members --verbose prints (the --state and --offsets outputs may follow it), or an admin client's describeConsumerGroups as JSON. The model reads the group into a run: its members, topics, protocol and assignor; what a description does not say is assumed at Kafka's defaults, below, for you to change.",
    zh: '粘贴 kafka-consumer-groups.sh --describe --group G --members --verbose 的输出（其后可再跟 --state 和 --offsets 的输出），或管理客户端 describeConsumerGroups 的 JSON。模型把这个消费组读成一次运行：成员、主题、协议与分配器；描述中没有的设置按 Kafka 默认值假定，列在下方，可以修改。',
  },
  ygText: { en: "Your group's description", zh: '你的消费组的描述' },
  ygPlaceholder: {
    en: 'GROUP   CONSUMER-ID   HOST   CLIENT-ID   #PARTITIONS   CURRENT-EPOCH   CURRENT-ASSIGNMENT …',
    zh: 'GROUP   CONSUMER-ID   HOST   CLIENT-ID   #PARTITIONS   CURRENT-EPOCH   CURRENT-ASSIGNMENT …',
  },
  ygRead: { en: 'Read the group', zh: '读取消费组' },
  ygTake: { en: "The playground's group, as it is now", zh: '演练场中的消费组（当前状态）' },
  liveWhatIf: { en: 'What if this group restarts now?', zh: '如果这个消费组现在重启会怎样？' },
  ygCannotRead: { en: 'Cannot read this group:', zh: '无法读取这个消费组：' },
  ygExample: { en: 'Paste an example (30 members)', zh: '粘贴示例（30 个成员）' },
  ygGroup: { en: 'Group', zh: '消费组' },
  ygMembers: { en: 'Members', zh: '成员' },
  ygTopics: { en: 'Topics (partitions)', zh: '主题（分区数）' },
  ygPartitions: { en: 'Partitions', zh: '分区' },
  ygProtocol: { en: 'Protocol', zh: '协议' },
  ygAssignor: { en: 'Assignor', zh: '分配器' },
  ygState: { en: 'State when described', zh: '描述时的状态' },
  ygSources: { en: 'Read from', zh: '读自' },
  ygAssumed: { en: "Assumed (not in the description): Kafka's defaults", zh: '假定值（描述中没有）：Kafka 的默认值' },
  ygAssumedHint: {
    en: "processingMs is your application's time per batch between two polls; the others are Kafka settings (consumer.* the clients', broker.* the brokers').",
    zh: 'processingMs 是应用在两次 poll 之间处理一批消息的时间；其余是 Kafka 设置（consumer.* 为客户端的，broker.* 为 broker 的）。',
  },
  ygPlan: { en: 'The rolling restart', zh: '滚动重启' },
  ygOrder: { en: 'Order', zh: '顺序' },
  ygOrderListed: { en: 'as listed', zh: '按列出顺序' },
  ygOrderReversed: { en: 'reversed', zh: '倒序' },
  ygOrderShuffled: { en: 'shuffled', zh: '打乱' },
  ygDown: { en: 'Each member down for', zh: '每个成员停机' },
  ygOpen: { en: 'Open in the playground', zh: '在演练场中打开' },
  compareHint: {
    en: 'The current scenario with consumer settings A and B (Kafka property names, key=value per line; group.instance.id=* gives every consumer its own static id), each run to its end.',
    zh: '当前场景分别使用消费者配置 A 和 B（Kafka 属性名，每行 key=value；group.instance.id=* 为每个消费者设置各自的静态 id），各自运行到结束。',
  },
  compareRunBoth: { en: 'Run both to the end', zh: '两种配置都运行到结束' },
  consumerProtocol: { en: 'consumer protocol', zh: 'consumer 协议' },
  classicProtocol: { en: 'classic protocol', zh: 'classic 协议' },
  subscribedRegex: { en: 'subscribed by pattern', zh: '按模式订阅' },
  resolvedRegex: { en: 'Patterns resolved', zh: '已解析的模式' },
  resolvedRegexHint: {
    en: 'The coordinator matches each subscribed pattern (RE2/J syntax) against the cluster’s topics, again at most every 10 s when topics change; a member is assigned from the topics its pattern matched.',
    zh: '协调者把每个订阅的模式（RE2/J 语法）与集群的主题匹配，主题变化时最多每 10 秒重新匹配一次；成员从其模式匹配到的主题中获得分配。',
  },
  upgradeColumn: { en: 'upgrade to the consumer protocol', zh: '升级到 consumer 协议' },
  compareA: { en: 'Configuration A', zh: '配置 A' },
  compareApp: { en: 'The application, in every run compared', zh: '应用（所有比较的运行都使用）' },
  appRevoke: { en: 'onPartitionsRevoked per partition', zh: '每个分区的 onPartitionsRevoked' },
  appAssign: { en: 'onPartitionsAssigned per partition', zh: '每个分区的 onPartitionsAssigned' },
  appJitter: { en: 'poll jitter up to', zh: 'poll 抖动最多' },
  msUnit: { en: 'ms', zh: '毫秒' },
  compareAppHint: {
    en: 'A real listener commits, flushes state and stops work for each partition it gives up, and restores state for each it gets. Eager pays that for every partition at every rebalance; cooperative only for the partitions that move; static membership avoids the rebalance. Set them to 0 to see the protocols alone: with no listener time, cooperative’s extra follow-up rebalance costs more than eager’s revoke.',
    zh: '真实的监听器会为每个撤销的分区提交位移、刷新状态并停止处理，为每个新分区恢复状态。eager 每次再平衡都为所有分区付出这些代价；cooperative 只为移动的分区付出；静态成员则避免再平衡。把它们设为 0 可只看协议本身：没有监听器耗时，cooperative 额外的后续再平衡反而比 eager 的撤销代价更高。',
  },
  openRun: { en: 'open', zh: '打开' },
  openRunHelp: {
    en: 'Open this run in a playground of its own (a new tab), with its timeline: put two side by side.',
    zh: '在新标签页中单独打开这次运行及其时间线：可以并排比较。',
  },
  compareB: { en: 'Configuration B', zh: '配置 B' },
  compareCaption: { en: 'Metrics at the end of each run', zh: '各次运行结束时的指标' },
  compareCaptionSeeds: {
    en: 'Metrics at the end of each run: the median of {n} seeds, and their range beneath it where they differ',
    zh: '各次运行结束时的指标：{n} 个种子的中位数，不同时其下方给出范围',
  },
  compareEpochs: {
    en: '† consumer protocol: target assignments (group epochs); it has no PreparingRebalance',
    zh: '† consumer 协议：目标分配次数（组纪元）；它没有“准备再平衡”',
  },
  compareSetup: { en: 'The rolling restarts: the group and its restarts', zh: '滚动重启：消费组与重启' },
  setupConsumers: { en: 'consumers', zh: '消费者数' },
  setupPartitions: { en: 'partitions', zh: '分区数' },
  setupGap: { en: 'ms between restarts', zh: '两次重启间隔（毫秒）' },
  setupSeeds: { en: 'seeds per column', zh: '每列种子数' },
  compareRollingWord: { en: 'Rolling restart', zh: '滚动重启' },
  compareUpgradeWord: { en: 'Rolling upgrade', zh: '滚动升级' },
  compareProgress: { en: '{done} of {total} runs done…', zh: '已完成 {done} 次运行，共 {total} 次……' },
  compareCancelled: { en: 'Cancelled: nothing compared.', zh: '已取消：没有比较。' },
  cancel: { en: 'Cancel', zh: '取消' },
  compareSetupLine: {
    en: 'Compared: {consumers} consumers on {partitions} partitions ({topics}), one restart every {gap}, each column over {seeds}; the application spends {revoke} ms per partition revoked, {assign} ms per partition assigned, up to {jitter} ms of jitter.',
    zh: '比较的是：{consumers} 个消费者、{partitions} 个分区（{topics}），每 {gap} 重启一个，每列运行 {seeds} 个种子；应用每撤销一个分区花 {revoke} 毫秒，每分配一个分区花 {assign} 毫秒，抖动最多 {jitter} 毫秒。',
  },
  compareWhyConsumer: {
    en: 'Why the consumer protocol can leave partitions unowned longer than cooperative-sticky with no stop-the-world: its reconciliation is paced by heartbeats. A member learns its new target at its next heartbeat (group.consumer.heartbeat.interval.ms, 5 s by default), and a partition that moves waits for its old owner to revoke it and say so in a heartbeat, then for the new owner’s next heartbeat to be given it.',
    zh: '为什么 consumer 协议在没有全局暂停的情况下，分区无人拥有的时间仍可能比 cooperative-sticky 长：它的协调由心跳推进。成员在下一次心跳（group.consumer.heartbeat.interval.ms，默认 5 秒）才得知新的目标；一个要移动的分区要等原拥有者撤销它并在心跳中报告，再等新拥有者的下一次心跳才能分给它。',
  },
  staticMembership: { en: 'static membership', zh: '静态成员' },
  errorBar: { en: 'error response (named on the bar)', zh: '错误响应（错误名标在条旁）' },
  lostBar: { en: 'lost or timed out', zh: '丢失或超时' },
  openBar: { en: 'waiting for its response (a parked JoinGroup or SyncGroup)', zh: '等待响应（被挂起的 JoinGroup 或 SyncGroup）' },
  stateMark: { en: "group state change (the state's colour)", zh: '消费组状态变化（该状态的颜色）' },
  timerMark: { en: 'timer fired', zh: '定时器触发' },
  faultMark: { en: 'crash, expiry, failover', zh: '崩溃、过期、故障转移' },
  netMark: { en: 'link cut or healed', zh: '网络断开或恢复' },
  lifeMark: { en: 'consumer started or closed', zh: '消费者启动或关闭' },
  scenarioEnd: {
    en: "Stopped at the scenario's end. Step on, or act on the group (crash, close, cut…) and play on to see what follows.",
    zh: '已在场景结束处停止。可继续单步，或对消费组操作（崩溃、关闭、断网…）后继续播放，观察其后果。',
  },
  atRest: {
    en: 'Stopped: after your action the group is Stable again, every member a running consumer.',
    zh: '已停止：在你的操作之后，消费组重新稳定，每个成员都是运行中的消费者。',
  },
  playOnLimit: {
    en: 'Stopped: 6 minutes of simulated time past your last action (the longest default timeouts). Step on to go further.',
    zh: '已停止：距你最后一次操作已过 6 分钟模拟时间（最长的默认超时）。可继续单步。',
  },
  compactAssignments: {
    en: 'How many partitions each consumer took in each generation (+ how many are new to it, − how many it revoked); hover a cell for the partitions.',
    zh: '每个消费者在每一代分到的分区数（+ 其中新增的数量，− 撤销的数量）；将鼠标悬停在单元格上可查看具体分区。',
  },
  staleNote: {
    en: '(written for the scenario as scripted; your actions changed the run)',
    zh: '（这段说明是为原始场景写的；你的操作已改变了运行）',
  },
  yourActions: { en: 'Your actions:', zh: '你的操作：' },
  removeAction: { en: 'Remove this action', zh: '删除此操作' },
  undoAction: { en: 'Undo the last', zh: '撤销最后一个' },
  backToScenario: { en: 'Back to the scenario as scripted', zh: '回到原始场景' },
  keyMoment: { en: 'Key moment', zh: '关键时刻' },
  unknownViews: {
    en: 'This embed asks for views the playground does not have: {views}. Its views are sm, timeline, assignments and steps (or narration alone).',
    zh: '这个嵌入要求了演练场没有的视图：{views}。可用的视图是 sm、timeline、assignments 和 steps（或只要 narration）。',
  },
  linkCopied: { en: 'Link copied: it opens this run at this step.', zh: '链接已复制：它在这一步打开这次运行。' },
  linkSelected: {
    en: 'Link ready, selected in the field: copy it (Ctrl+C) to share this run at this step.',
    zh: '链接已生成并在框中选中：复制它（Ctrl+C）即可分享这次运行的这一步。',
  },
  whoGotWhat: { en: 'Who got what', zh: '谁分到了什么' },
  whoGotWhatHelp: {
    en: 'To the moment the new assignment reaches the last member waiting for it',
    zh: '跳到新的分配到达最后一个等待它的成员的时刻',
  },
  keyMomentHelp: {
    en: "Go to the step the scenario is about (K): the book's cases open at the leave.",
    zh: '跳到场景的关键一步（K）：书中的几种情况都停在成员离开的那一步。',
  },
  loadingModel: { en: 'Loading the model…', zh: '正在加载模型……' },
  modelFailed: { en: 'The coordinator (WebAssembly) failed to load:', zh: '协调者模型（WebAssembly）加载失败：' },
  noKeyMoment: { en: 'This scenario names no key moment.', zh: '此场景没有指定关键时刻。' },
  momentLegend: { en: 'The scrubber’s moments:', zh: '进度条上的时刻：' },
  mark_key: { en: 'the scenario’s key moment', zh: '场景的关键时刻' },
  mark_fault: { en: 'a fault', zh: '故障' },
  mark_migration: { en: 'the group changes protocol (online migration)', zh: '消费组切换协议（在线迁移）' },
  mark_leave: { en: 'LeaveGroup arrives', zh: '离开组请求到达' },
  mark_rebalance: { en: 'a rebalance starts', zh: '再平衡开始' },
  mark_stable: { en: 'a rebalance completes (Stable)', zh: '再平衡完成（稳定）' },
  mark_generation: { en: 'a generation begins', zh: '新的一代开始' },
  mark_assigned: { en: 'every member has its new assignment', zh: '每个成员都拿到了新的分配' },
  mark_join: { en: 'JoinGroup arrives', zh: '加入组请求到达' },
  mark_expiry: { en: 'a coordinator timer fires', zh: '协调者定时器到期' },
  applicationSettings: { en: 'Application (its rebalance listener and polls)', zh: '应用（再平衡监听器与 poll）' },
  unchangedLeftOut: {
    en: '{n} generations in which nothing moved are left out',
    zh: '已省略 {n} 代没有分区移动的分配',
  },
  showThem: { en: 'show them', zh: '显示' },
  onlyChanged: { en: 'Show only the generations in which something moved', zh: '只显示有分区移动的代' },
  legend: { en: 'Legend', zh: '图例' },
  zoomIn: { en: 'Zoom in (Ctrl + wheel)', zh: '放大（Ctrl + 滚轮）' },
  zoomOut: { en: 'Zoom out (Ctrl + wheel)', zh: '缩小（Ctrl + 滚轮）' },
  panEarlier: { en: 'Earlier (or drag the timeline)', zh: '更早（或拖动时间线）' },
  panLater: { en: 'Later', zh: '更晚' },
  followNow: { en: 'Follow now', zh: '跟随当前' },
  timelineHint: { en: 'after the line: what happens next', zh: '竖线之后：接下来会发生的事' },
  panned: { en: 'looking back: the run goes on without the view', zh: '正在回看：运行继续，视图不跟随' },
  next: { en: 'next', zh: '即将' },
  prevMoment: { en: 'Previous moment', zh: '上一个时刻' },
  nextMoment: { en: 'Next moment', zh: '下一个时刻' },
  prevMomentHelp: {
    en: 'Back to the last moment before this step ([): a state change, a LeaveGroup or JoinGroup arriving, a rebalance completing, a timer firing, a fault.',
    zh: '回到此步之前的上一个时刻（[）：状态变化、离开组或加入组请求到达、再平衡完成、定时器到期、故障。',
  },
  nextMomentHelp: {
    en: 'On to the next moment (]): a state change, a LeaveGroup or JoinGroup arriving, a rebalance completing, a timer firing, a fault.',
    zh: '前进到下一个时刻（]）：状态变化、离开组或加入组请求到达、再平衡完成、定时器到期、故障。',
  },
  noMomentYet: { en: 'No moment yet: press “Next moment”.', zh: '还没有时刻：请按“下一个时刻”。' },
  since: { en: 'the last moment', zh: '最近的时刻' },
  noNextMoment: {
    en: 'No further moment before playing would stop (Play says why).',
    zh: '在播放停止之前没有下一个时刻（按播放可看到原因）。',
  },
  noPrevMoment: { en: 'No moment before this step.', zh: '此步之前没有时刻。' },
  actOn: { en: '{action} consumer {consumer}', zh: '{action}消费者 {consumer}' },
  consumerSettingsOf: { en: 'Settings of consumer {consumer}', zh: '消费者 {consumer} 的设置' },
  consumersFailed: {
    en: '{who} failed: the coordinator answered {error}, an error a consumer does not retry.',
    zh: '{who} 已失败：协调者回答了 {error}，消费者不会重试这种错误。',
  },
  startHint: {
    en: 'Nothing has happened yet: press Play, Step, or Next moment.',
    zh: '还什么都没有发生：按“播放”“前进一步”或“下一个时刻”。',
  },
  skipToRun: { en: 'Skip to the run’s controls', zh: '跳到运行的控制按钮' },
  intro: {
    en: 'Kafka’s consumer-group coordinator, modelled request by request: watch members join, leave and rebalance, step by step. Start with one of the book’s four cases, or press Play.',
    zh: '按请求逐一建模的 Kafka 消费组协调者：一步一步看成员加入、离开和再平衡。从书中的四种情况之一开始，或者按“播放”。',
  },
  moreScenarios: {
    en: 'More scenarios: the consumer protocol (KIP-848), moving between the protocols, and pattern subscriptions',
    zh: '更多场景：consumer 协议（KIP-848）、两种协议之间的迁移与按模式订阅',
  },
  openAtMoment: { en: 'The book’s four cases, at the leave:', zh: '书中的四种情况，直达成员离开：' },
  openAtMoment848: { en: 'The consumer protocol (KIP-848), at its moment:', zh: 'consumer 协议（KIP-848），直达关键时刻：' },
  openAtMigration: { en: 'Moving between the protocols, at its moment:', zh: '在两种协议之间迁移，直达关键时刻：' },
  openAtPattern: {
    en: 'A topic created later joins a pattern subscription (subscribe(Pattern)), at its creation:',
    zh: '稍后创建的主题加入按模式的订阅（subscribe(Pattern)），直达创建时刻：',
  },
  upcoming: { en: 'What happens next', zh: '接下来会发生什么' },
  upcomingHint: {
    en: 'Choose which message arrives first, or drop one: your choice is an action like any other (in the link, undoable).',
    zh: '选择哪条消息先到达，或丢弃一条：你的选择和其他操作一样（会写进链接，可撤销）。',
  },
  deliverNow: { en: 'first', zh: '先到' },
  drop: { en: 'drop', zh: '丢弃' },
  inOrder: {
    en: 'A connection delivers in order: an earlier message on this link arrives first.',
    zh: '一条连接按顺序送达：这条链路上更早的消息会先到达。',
  },
  nothingLeft: { en: 'Stopped: nothing is left to happen.', zh: '已停止：不会再发生任何事。' },
  recordFull: {
    en: 'Stopped: this run has recorded as much as the page can keep (about 2 GB). Everything so far stays: scrub back, or act in the past to fork it. To see further, shorten the scenario or use fewer consumers or partitions.',
    zh: '已停止：这次运行记录的内容已达到页面能保存的上限（约 2 GB）。已有的一切都保留：可以拖动回看，或在过去的某一步操作以分叉。若要看得更远，请缩短场景，或减少消费者或分区。',
  },
} as const satisfies Record<string, Record<Lang, string>>;

export type TextKey = keyof typeof T;

/** The client's member states and a consumer's life, for the consumers table. */

/** A generation (classic) or an epoch (a consumer group's, KIP-848) as the tables label it. */
export function generationLabel(n: number, lang: Lang, epoch = false): string {
  if (epoch) return lang === 'zh' ? `纪元 ${n}` : `epoch ${n}`;
  return lang === 'zh' ? `第 ${n} 代` : `gen ${n}`;
}

/** The step table's paging: the buttons and the range shown. */
export function stepPaging(
  lang: Lang,
  span: number,
  from: number,
  to: number,
  total: number,
): { earlier: string; later: string; range: string } {
  return lang === 'zh'
    ? { earlier: `◀ 前 ${span} 步`, later: `后 ${span} 步 ▶`, range: `第 ${from}–${to} 步，共 ${total} 步` }
    : { earlier: `◀ ${span} earlier`, later: `${span} later ▶`, range: `steps ${from}–${to} of ${total}` };
}

/** Why a link, a file or an embed opened the run at an earlier step than it asked for. */
export function reachedEarly(lang: Lang, reached: number, asked: number, max: number, past: number): string {
  return lang === 'zh'
    ? `本次运行停在第 ${reached} 步，而不是第 ${asked} 步：链接或文件最多能把运行带到第 ${max} 步，并且在场景结束后（没有新的操作时）最多再走 ${past} 步。`
    : `This run opened at step ${reached}, not ${asked}: a link or file takes a run at most ${max} steps, and at most ${past} steps past its scenario's end without an action in between.`;
}

/** What the reader is told of an error the page caught: the model's own refusal as it gives it;
 * a WebAssembly trap (the module ran out of memory, or hit a bug), and what wasm-bindgen says of
 * every call after one ("recursive use of an object"), as what they mean. A trapped module
 * cannot go on: the reader is told to reload, not shown "unreachable". */
export function errorText(err: unknown, lang: Lang): string {
  const message = err instanceof Error ? err.message : String(err);
  const trapped =
    (typeof WebAssembly !== 'undefined' && err instanceof WebAssembly.RuntimeError) || message.startsWith('recursive use of an object');
  if (!trapped) return message;
  return lang === 'zh'
    ? `模型因内部错误而停止（${clipped(message, lang)}），无法继续：请重新加载页面。`
    : `The model stopped on an internal error (${clipped(message, lang)}) and cannot go on: reload the page.`;
}

/** A large run file being read (the page is busy until the model has built it). */
export function reading(lang: Lang, name: string, bytes: number): string {
  const mb = (bytes / 1e6).toFixed(1);
  return lang === 'zh' ? `正在读取 ${clipped(name, lang)}（${mb} MB）……` : `Reading ${clipped(name, lang)} (${mb} MB)…`;
}

/** A long way to a link's, a file's or an embed's step, under way. */
export function reaching(lang: Lang, at: number, target: number): string {
  return lang === 'zh' ? `正在把运行带到第 ${target} 步：已到第 ${at} 步……` : `Taking the run to step ${target}: at step ${at}…`;
}

/** The reader stopped it. */
export function reachStopped(lang: Lang, at: number, target: number): string {
  return lang === 'zh'
    ? `按你的要求停在第 ${at} 步（目标是第 ${target} 步）；运行从这里继续。`
    : `Stopped at step ${at} of ${target}, as you asked; the run goes on from here.`;
}

export function heartbeatTimers(n: number, lang: Lang): string {
  return lang === 'zh' ? `${n} 个心跳定时器` : `${n} heartbeat timers`;
}

export function ownershipLabel(partitions: number, now: number, lang: Lang): string {
  return lang === 'zh' ? `${partitions} 个分区从 0 到 ${now} ms 的归属` : `ownership of ${partitions} partitions from 0 to ${now} ms`;
}

export function t(key: TextKey, lang: Lang): string {
  return T[key][lang];
}

/** The keyboard shortcuts, for the help panel. */
export const SHORTCUTS: [string, Record<Lang, string>][] = [
  ['Space', { en: 'Play / pause', zh: '播放 / 暂停' }],
  ['→', T.step],
  ['←', T.back],
  ['Home', T.restart],
  ['K', T.keyMoment],
  ['[ / ]', { en: 'Previous / next moment', zh: '上一个 / 下一个时刻' }],
  ['+ / −', T.speed],
  ['L', { en: 'English / 中文', zh: '切换语言' }],
];
